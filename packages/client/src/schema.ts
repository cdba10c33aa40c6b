// Generated from the Parley OpenAPI document by `npm run client:generate`; do not edit.
// test/client/package.test.ts fails when it is stale.

export interface paths {
    "/admin/v1/erasures/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project erasure's record: its status and what it removed (D166)
         * @description The record outlives the project it erased. `status` is `pending` while an erasure runs (or waits to be resumed after a crash) and `completed` once nothing of the project is left; `counts` and `rows` say what was removed. An unknown id answers 404.
         */
        get: operations["adminGetProjectErasure"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/keys/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key given by its value, whichever project it belongs to (D83)
         * @description For a key found where it should not be: give the full key, its project need not be known.
         */
        post: operations["adminRevokeKeyByValue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List projects
         * @description Every project of the server, with its settings.
         */
        get: operations["adminListProjects"];
        put?: never;
        /**
         * Create a project and its first API key
         * @description Answers the project and its first API key; the key is shown this once and never again.
         */
        post: operations["adminCreateProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a project
         * @description One project with its settings; an unknown id is 404 `PROJECT_NOT_FOUND`.
         */
        get: operations["adminGetProject"];
        put?: never;
        post?: never;
        /**
         * Erase a project: revoke its keys, then delete all its data (D74)
         * @description Cannot be undone. `confirm` must repeat the id. Answers once nothing of the project is left, with the rows removed per table and the erasure record (D166), which outlives the project: `GET /admin/v1/erasures/{id}` reads it again. A retry after the erasure answers the same record; a request while another one runs the erasure answers it as it stands (`success` false, `status` pending).
         */
        delete: operations["adminEraseProject"];
        options?: never;
        head?: never;
        /**
         * Rename a project or change its settings (merged into the stored ones)
         * @description Given settings are merged into the stored ones; settings left out keep their values.
         */
        patch: operations["adminUpdateProject"];
        trace?: never;
    };
    "/admin/v1/projects/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's API keys, revoked ones included (D83)
         * @description Never the keys themselves: their id, first characters and dates.
         */
        get: operations["adminListKeys"];
        put?: never;
        /**
         * Create another API key for a project
         * @description Answers the new key, shown this once; the project's other keys keep working.
         */
        post: operations["adminCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projects/{id}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key at once
         * @description The key is refused from the next request on; the project and its other keys are untouched.
         */
        delete: operations["adminRevokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projects/{id}/retention/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the project's retention policy and expiries would delete now (D151)
         * @description Per rule: how many objects the sweep would erase if it ran now, with the earliest and latest of the times the rule reads. Deletes nothing.
         */
        get: operations["adminPreviewRetention"];
        put?: never;
        /**
         * What a proposed retention policy would delete now, before it is stored (D151)
         * @description As the GET, for the policy given instead of the stored one (null rules are absent). Deletes nothing and stores nothing.
         */
        post: operations["adminPreviewProposedRetention"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projects/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This month's write counters of a project (D44)
         * @description The counts of writes the project made this calendar month (UTC), against its quotas.
         */
        get: operations["adminGetUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dialogues, newest first
         * @description Cursor-paged (`next`); filters by namespace, thread, status, tags and creation date.
         */
        get: operations["listDialogues"];
        put?: never;
        /**
         * Create a dialogue, optionally with up to 25 messages
         * @description `messages` are added first, in order, then `message` (D16).
         */
        post: operations["createDialogue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{dialogueId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the messages of a dialogue (same as GET /messages?dialogueId=)
         * @description The dialogue named in the path; cursor-paged like `GET /messages`.
         */
        get: operations["listDialogueMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{dialogueId}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete one message permanently (same as DELETE /message/{messageId}?dialogueId=)
         * @description The dialogue named in the path; otherwise as `DELETE /message/{messageId}`.
         */
        delete: operations["deleteDialogueMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a dialogue with its 10 most recent (or first) messages
         * @description The full dialogue record with `messages`: the 10 newest, oldest first, or the first 10 with `messages=first`.
         */
        get: operations["getDialogue"];
        /**
         * Update tags, label or state, and append messages
         * @description metadata, status, id, projectId, namespace and threadOf cannot be changed (400 INVALID_INPUT); an ended dialogue refuses the update (409 DIALOGUE_ENDED). `messages` holds the added messages.
         */
        put: operations["updateDialogue"];
        post?: never;
        /**
         * Delete a dialogue and its messages permanently; its threads remain
         * @description Everything derived from it (embeddings, summaries) is deleted too; child threads become standalone dialogues.
         */
        delete: operations["deleteDialogue"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Summarize a dialogue and store the summary on it
         * @description D22: `summary` covers every message (incrementally: the previous summary plus newer messages). Messages are kept. Written by the configured chat model, or offline by the extractive summarizer.
         */
        put: operations["compactDialogue"];
        /**
         * Summarize a dialogue and store the summary on it
         * @description D22: `summary` covers every message (incrementally: the previous summary plus newer messages). Messages are kept. Written by the configured chat model, or offline by the extractive summarizer.
         */
        post: operations["compactDialoguePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What to send a model next: the summary, then the newest messages that fit a token budget
         * @description D81: the summary first (when it fits), then the newest messages its summary does not cover, oldest first, never cut; `omittedMessages` counts the older ones left out and `fromMessageId` names the first included.
         */
        get: operations["getDialogueContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}/continue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Continue a dialogue in a new one that starts with its summary
         * @description D21: compacts the dialogue, ends it, and creates a dialogue in the same namespace with the same tags, `metadata.continuedFrom`, and the summary as its first `system` message.
         */
        put: operations["continueDialogue"];
        /**
         * Continue a dialogue in a new one that starts with its summary
         * @description D21: compacts the dialogue, ends it, and creates a dialogue in the same namespace with the same tags, `metadata.continuedFrom`, and the summary as its first `system` message.
         */
        post: operations["continueDialoguePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * End a dialogue: it accepts no more messages (idempotent)
         * @description Ending an ended dialogue answers it again, unchanged.
         */
        put: operations["endDialogue"];
        /**
         * End a dialogue: it accepts no more messages (idempotent)
         * @description Ending an ended dialogue answers it again, unchanged.
         */
        post: operations["endDialoguePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fork a dialogue: a new dialogue holding copies of its messages up to one
         * @description D160: the copies keep their content byte for byte and their `created`, under new ids; the fork shows `forkedFrom` and takes the original's namespace, tags and label unless given. Deleting the original leaves the fork whole. An `upToMessageId` not in the dialogue is 404 MESSAGE_NOT_FOUND.
         */
        post: operations["forkDialogue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dialogue/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Merge the body into the dialogue state (JSON Merge Patch)
         * @description A null value removes the key. Works on ended dialogues (D20).
         */
        put: operations["updateDialogueState"];
        /**
         * Merge the body into the dialogue state (JSON Merge Patch)
         * @description A null value removes the key. Works on ended dialogues (D20).
         */
        post: operations["updateDialogueStatePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/erasures/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An erasure's status and counts
         * @description D162: `pending` while the worker erases, then `completed` with the final counts.
         */
        get: operations["getErasure"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the change feed, oldest first
         * @description D65: every committed change of the project as an event, in `seq` order. Pass the answer's `next` as `after` to continue. Events are kept EVENTS_RETENTION_DAYS; an `after` below the oldest kept event answers 410 EVENTS_EXPIRED.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the change feed live (server-sent events)
         * @description D66: each event as `id: <seq>`, `event: <type>`, `data: <event JSON>`, and a comment line every 15 s. Without a cursor the stream starts with the next new event; a `Last-Event-ID` header or `after` resumes without loss or duplicates.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memories, newest first by default
         * @description Cursor-paged; filters by namespace, label, tags and creation date.
         */
        get: operations["listMemories"];
        put?: never;
        /**
         * Create a memory
         * @description A labelled long-term value (any JSON value), searchable by meaning once embedded.
         */
        post: operations["createMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memory/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a memory
         * @description One memory by its id; with `namespace`, a memory of another namespace is not found.
         */
        get: operations["getMemory"];
        /**
         * Update a memory: tags (replaced), value, label, description
         * @description Fields left out keep their values; a new value is embedded again.
         */
        put: operations["updateMemory"];
        post?: never;
        /**
         * Delete a memory, with its embedding
         * @description Permanent; answers the id that was deleted.
         */
        delete: operations["deleteMemory"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add one message to a dialogue
         * @description Content is stored and returned exactly as sent (D28). The dialogue's totalMessages, lastMessageCreated and modified change in the same transaction (D35).
         */
        post: operations["createMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one message
         * @description The full message record; the dialogue is named by `dialogueId` (and `namespace` when it has one).
         */
        get: operations["getMessage"];
        /**
         * Replace a message's tags (the only change a message accepts)
         * @description Content is immutable: only `tags` may be sent, and it replaces the list.
         */
        put: operations["updateMessageTags"];
        post?: never;
        /**
         * Delete one message permanently
         * @description The message and its embedding leave the database; the dialogue's counters follow.
         */
        delete: operations["deleteMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the messages of a dialogue, oldest first
         * @description Cursor-paged (`next`); `order=desc` gives the newest first.
         */
        get: operations["listMessages"];
        put?: never;
        /**
         * Add 1-100 messages to a dialogue, all or nothing
         * @description If one message is invalid none is stored, and `details` names it (D31). The body is either `{dialogueId, namespace?, messages}`, answered with `{dialogueId, items, totalMessages}`, or a bare array of messages with `dialogueId` (and `namespace`) in the query, answered with a bare array of the stored messages (D55).
         */
        post: operations["createMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/namespaces/{namespace}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Erase a namespace: every dialogue, message and memory of one end user
         * @description D162-D165: answers 202 with the erasure record at once; from then on the namespace reads as empty and refuses new objects (409 NAMESPACE_ERASING) while a background worker deletes it in batches. A retry while it is pending answers the same record. Its completion is the `namespace.erased` event, with the counts.
         */
        delete: operations["eraseNamespace"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search messages, dialogues or memories by meaning and by words
         * @description Hybrid search: pgvector cosine similarity over the configured embedding model fused with Postgres full-text search. `mode` tells which signals answered: `hybrid`, `lexical` (no embedder configured, or the provider failed) or `semantic`. A message is found by its words at once and by its meaning once embedded.
         *
         *     Without `namespace` the whole project is searched; with it, only that namespace (D51). `tag`/`tags`, `metadata` and `filter` test the searched object’s own fields and run inside the query, before the page (D59). The results are the best `limit` matches by relevance, ordered by `orderBy`/`order`; each carries `object`, a dialogue also `matches` (up to 3 of its best messages), and `request` echoes the order and the filters as applied, dates as UTC ranges.
         */
        post: operations["search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a dialogue's summaries, newest first
         * @description Every summary written for the dialogue, kept as its history; cursor-paged.
         */
        get: operations["listSummaries"];
        put?: never;
        /**
         * Summarize a dialogue (or a range of its messages) and keep the summary
         * @description D56: synchronous. Stores a new summary record and makes it the dialogue's `summary`; without `startId`/`endId` the whole dialogue is covered, built on the previous summary. A failing model answers 201 with `status: "failed"` and `error`, and nothing changes on the dialogue. A repeated client `id` answers 200 with the stored summary.
         */
        post: operations["createSummary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/summary/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a summary
         * @description One summary by its id; a namespaced dialogue's summary needs its `namespace`.
         */
        get: operations["getSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The project's endpoints, without their signing secrets.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint (its secret is shown only here)
         * @description D67-D69: events committed from now on are POSTed to the URL, signed per Standard Webhooks. The URL must be https:// and must not resolve to a private address (400 INVALID_PARAMETER); a project has at most 20 endpoints (409 RESOURCE_CONFLICT).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description One endpoint, without its signing secret.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint, its pending deliveries and its log
         * @description Nothing more is sent to it from the next delivery on.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint: url, types, namespace, enabled
         * @description Fields left out keep their values.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The delivery log of an endpoint: one item per attempt, newest first
         * @description Status, answer code and timing of each attempt; cursor-paged.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again the events after a seq
         * @description D67: queues the kept events after `after` that the endpoint types and namespace select (at most 10,000 per call; `next` continues). 410 EVENTS_EXPIRED when they were pruned.
         */
        post: operations["replayWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new signing secret (the previous one signs too for 24 h)
         * @description Answers the new secret, shown this once; deliveries carry both signatures for 24 hours.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event to the endpoint
         * @description Queued at once whatever the endpoint types; the answer is the pending attempt.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiKey: {
            created: string;
            id: string;
            /** @description When the key last authenticated a request, refreshed at most once a minute; null: never */
            lastUsed: string | null;
            /** @description The first characters of the key, to tell keys apart */
            prefix: string;
            /** @description When the key was revoked; null: it is active */
            revoked: string | null;
        };
        ContextMessage: {
            content: string | (string | {
                [key: string]: unknown;
            } | {
                [key: string]: unknown;
            }[]) | {
                [key: string]: unknown;
            }[];
            name?: string;
            role: string;
        };
        /**
         * @example {
         *       "namespace": "user-42",
         *       "label": "Order inquiry",
         *       "tags": [
         *         "support"
         *       ],
         *       "metadata": {
         *         "channel": "web"
         *       },
         *       "state": {
         *         "step": "greeting"
         *       },
         *       "messages": [
         *         {
         *           "role": "system",
         *           "content": "You are a helpful support agent."
         *         },
         *         {
         *           "role": "user",
         *           "content": "Where is my order #1234?"
         *         }
         *       ]
         *     }
         */
        CreateDialogueRequest: {
            /**
             * Format: date-time
             * @description D57a: creation time (ISO 8601 with a zone), for importing history; messages without their own `created` take it
             */
            created?: string;
            /**
             * Format: date-time
             * @description D150: ISO 8601 date-time with a zone; from then on the object answers 404 everywhere and is erased. null clears it
             */
            expiresAt?: string;
            /** @description D57a: your own id (1-128 characters of A-Za-z0-9._:-); taken: 409 DUPLICATE_ID. Generated if omitted */
            id?: string;
            /** @description At most 128 characters */
            label?: string;
            /**
             * @description Added after `messages`; at most 25 in all
             * @example {
             *       "role": "user",
             *       "content": "Where is my order #1234?",
             *       "name": "Ada",
             *       "tags": [
             *         "support"
             *       ]
             *     }
             */
            message?: {
                /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
                content: (string | null) | ({
                    [key: string]: unknown;
                } | null) | ({
                    [key: string]: unknown;
                }[] | null);
                /**
                 * Format: date-time
                 * @description ISO 8601 with a zone; the time of the request if omitted
                 */
                created?: string;
                /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
                id?: string;
                /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description Speaker name */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "tool" | "developer";
                /** @description At most 50 tags of 1-64 characters */
                tags?: string[];
            };
            /** @description History, added first and in order */
            messages?: {
                /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
                content: (string | null) | ({
                    [key: string]: unknown;
                } | null) | ({
                    [key: string]: unknown;
                }[] | null);
                /**
                 * Format: date-time
                 * @description ISO 8601 with a zone; the time of the request if omitted
                 */
                created?: string;
                /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
                id?: string;
                /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description Speaker name */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "tool" | "developer";
                /** @description At most 50 tags of 1-64 characters */
                tags?: string[];
            }[];
            /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description Namespace, 1-128 characters */
            namespace?: string;
            /** @description Free-form object, at most 256 KiB as JSON */
            state?: {
                [key: string]: unknown;
            };
            /** @description At most 50 tags of 1-64 characters */
            tags?: string[];
            /** @description Parent dialogue id: makes this dialogue a thread */
            threadOf?: string;
        };
        CreatedMessages: {
            dialogueId: string;
            items: components["schemas"]["Message"][];
            totalMessages: number;
        };
        CreatedMessagesArray: components["schemas"]["Message"][];
        /**
         * @example {
         *       "dialogueId": "dlg_01jf3c9r0d6e8x2v7m4k5n1p0q",
         *       "role": "user",
         *       "content": "Where is my order #1234?",
         *       "name": "Ada",
         *       "tags": [
         *         "support"
         *       ]
         *     }
         */
        CreateMessageRequest: {
            /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
            content: (string | null) | ({
                [key: string]: unknown;
            } | null) | ({
                [key: string]: unknown;
            }[] | null);
            /**
             * Format: date-time
             * @description ISO 8601 with a zone; the time of the request if omitted
             */
            created?: string;
            /** @description Required here or in the query (D54) */
            dialogueId?: string;
            /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
            id?: string;
            /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** @description Speaker name */
            name?: string | null;
            /** @description Must equal the dialogue's namespace (D34) */
            namespace?: string;
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool" | "developer";
            /** @description At most 50 tags of 1-64 characters */
            tags?: string[];
        };
        /**
         * @description A bare array of 1-100 messages; `dialogueId` (and `namespace`) go in the query
         * @example [
         *       {
         *         "role": "user",
         *         "content": "Where is my order #1234?",
         *         "name": "Ada",
         *         "tags": [
         *           "support"
         *         ]
         *       }
         *     ]
         */
        CreateMessagesArrayRequest: {
            /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
            content: (string | null) | ({
                [key: string]: unknown;
            } | null) | ({
                [key: string]: unknown;
            }[] | null);
            /**
             * Format: date-time
             * @description ISO 8601 with a zone; the time of the request if omitted
             */
            created?: string;
            /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
            id?: string;
            /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** @description Speaker name */
            name?: string | null;
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool" | "developer";
            /** @description At most 50 tags of 1-64 characters */
            tags?: string[];
        }[];
        /**
         * @example [
         *       {
         *         "role": "user",
         *         "content": "Where is my order #1234?",
         *         "name": "Ada",
         *         "tags": [
         *           "support"
         *         ]
         *       },
         *       {
         *         "role": "assistant",
         *         "content": "It ships tomorrow."
         *       }
         *     ]
         */
        CreateMessagesBody: components["schemas"]["CreateMessagesRequest"] | components["schemas"]["CreateMessagesArrayRequest"];
        /**
         * @example {
         *       "dialogueId": "dlg_01jf3c9r0d6e8x2v7m4k5n1p0q",
         *       "messages": [
         *         {
         *           "role": "user",
         *           "content": "Hello"
         *         },
         *         {
         *           "role": "assistant",
         *           "content": [
         *             {
         *               "type": "text",
         *               "text": "Hi! How can I help?"
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        CreateMessagesRequest: {
            /** @description Required here or in the query */
            dialogueId?: string;
            messages: {
                /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
                content: (string | null) | ({
                    [key: string]: unknown;
                } | null) | ({
                    [key: string]: unknown;
                }[] | null);
                /**
                 * Format: date-time
                 * @description ISO 8601 with a zone; the time of the request if omitted
                 */
                created?: string;
                /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
                id?: string;
                /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description Speaker name */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "tool" | "developer";
                /** @description At most 50 tags of 1-64 characters */
                tags?: string[];
            }[];
            /** @description Must equal the dialogue's namespace (D34) */
            namespace?: string;
        };
        /**
         * @example {
         *       "dialogueId": "dlg_01jf3c9r0d6e8x2v7m4k5n1p0q",
         *       "namespace": "user-42"
         *     }
         */
        CreateSummaryRequest: {
            dialogueId: string;
            /** @description Last message of the range (inclusive, in dialogue order) */
            endId?: string;
            /** @description Custom id (1-128 characters of A-Za-z0-9._:-): a repeat with the same id answers 200 with the stored summary */
            id?: string;
            /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description When given, must be the dialogue's namespace (D53) */
            namespace?: string;
            /** @description First message of the range (inclusive, in dialogue order) */
            startId?: string;
            /** @description At most 50 tags of 1-64 characters */
            tags?: string[];
            /** @description Not supported: any value is 400 INVALID_PARAMETER */
            template?: unknown;
        };
        Dialogue: {
            created: string;
            expired: boolean;
            /** @description D150: when the dialogue stops existing; null: never */
            expiresAt: string | null;
            /** @description D160: for a fork, the dialogue and its last message it was copied from; null otherwise */
            forkedFrom: {
                dialogueId: string;
                messageId: string | null;
            } | null;
            id: string;
            label: string | null;
            lastMessageCreated: string | null;
            metadata: {
                [key: string]: unknown;
            };
            modified: string;
            namespace: string | null;
            projectId: string;
            state: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "active" | "ended" | "canceled" | "expired" | "deleted";
            summary: {
                created: string;
                messageCount: number;
                model: string;
                text: string;
                upToMessageId: string | null;
            } | null;
            tags: string[];
            threadCount: number;
            threadOf: string | null;
            totalMessages: number;
        };
        DialogueContext: {
            /** @enum {string} */
            format: "messages" | "anthropic" | "text";
            /** @description The oldest message included; null when none fits */
            fromMessageId: string | null;
            /** @description The turns to send, oldest first; null with format `text` */
            messages: components["schemas"]["ContextMessage"][] | null;
            /** @description Older messages left out: covered by the summary or beyond the budget */
            omittedMessages: number;
            /** @description With format `anthropic`: the summary and the system and developer texts; else null */
            system: string | null;
            /** @description With format `text`: the transcript; else null */
            text: string | null;
            /** @description Tokens of what is returned */
            tokens: number;
        };
        DialogueList: {
            items: components["schemas"]["Dialogue"][];
            /** @description Cursor of the next page; null on the last page */
            next: string | null;
        };
        DialogueWithMessages: {
            created: string;
            expired: boolean;
            /** @description D150: when the dialogue stops existing; null: never */
            expiresAt: string | null;
            /** @description D160: for a fork, the dialogue and its last message it was copied from; null otherwise */
            forkedFrom: {
                dialogueId: string;
                messageId: string | null;
            } | null;
            id: string;
            label: string | null;
            lastMessageCreated: string | null;
            messages: components["schemas"]["Message"][];
            metadata: {
                [key: string]: unknown;
            };
            modified: string;
            namespace: string | null;
            projectId: string;
            state: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "active" | "ended" | "canceled" | "expired" | "deleted";
            summary: {
                created: string;
                messageCount: number;
                model: string;
                text: string;
                upToMessageId: string | null;
            } | null;
            tags: string[];
            threadCount: number;
            threadOf: string | null;
            totalMessages: number;
        };
        Erasure: {
            completedAt: string | null;
            /** @description What has been erased so far; final once `completed` */
            counts: {
                dialogues: number;
                memories: number;
                messages: number;
            };
            createdAt: string;
            id: string;
            namespace: string;
            /**
             * @description `completed` once nothing of the namespace is left
             * @enum {string}
             */
            status: "pending" | "completed";
        };
        /** @description The error envelope every failure is answered with (D11) */
        Error: {
            error: {
                /** @description A stable code from the API's list; each operation's error responses name those it can return */
                code: string;
                details?: {
                    code: string;
                    field: string;
                    message: string;
                }[];
                message: string;
                requestId: string;
                timestamp: string;
                /** @enum {string} */
                type: "validation_error" | "authentication_error" | "authorization_error" | "not_found" | "conflict" | "rate_limit_exceeded" | "server_error" | "service_unavailable";
            };
        };
        Event: {
            created: string;
            /** @description The object as the REST API returns it after the change */
            data: {
                [key: string]: unknown;
            };
            dialogueId: string | null;
            /** @example evt_01jf3c9r0d6e8x2v7m4k5n1p0q */
            id: string;
            namespace: string | null;
            objectId: string;
            projectId: string;
            /** @description Position in the project feed: strictly increasing, gaps allowed */
            seq: number;
            /** @example message.created */
            type: string;
        };
        EventList: {
            items: components["schemas"]["Event"][];
            /** @description Pass as `after` next time: the last seq returned, or the given `after` */
            next: number;
        };
        /**
         * @example {
         *       "upToMessageId": "msg_01hz3k4m5n6p7q8r9s0t1v2w3x",
         *       "label": "Try B"
         *     }
         */
        ForkDialogueRequest: {
            /** @description The fork's label; the original's when left out */
            label?: string;
            /** @description The fork's namespace; the original's when left out */
            namespace?: string;
            /** @description The fork's tags; the original's when left out */
            tags?: string[];
            /** @description The last message to copy (included); every message when left out */
            upToMessageId?: string;
        };
        Memory: {
            created: string;
            description: string | null;
            /** @description D150: when the memory stops existing; null: never */
            expiresAt: string | null;
            id: string;
            label: string | null;
            metadata: {
                [key: string]: unknown;
            } | null;
            modified: string;
            namespace: string | null;
            projectId: string;
            tags: string[];
            /** @description The value exactly as it was sent */
            value: string | number | boolean | {
                [key: string]: unknown;
            } | unknown[];
        };
        Message: {
            /** @description The content exactly as it was sent */
            content: string | {
                [key: string]: unknown;
            } | {
                [key: string]: unknown;
            }[];
            /** @description UTF-8 bytes of string content, of the JSON text otherwise */
            contentLength: number;
            created: string;
            dialogueId: string;
            id: string;
            metadata: {
                [key: string]: unknown;
            } | null;
            modified: string;
            name: string | null;
            namespace: string | null;
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool" | "developer";
            tags: string[];
        };
        MessageList: {
            items: components["schemas"]["Message"][];
            /** @description Cursor of the next page; null on the last page */
            next: string | null;
        };
        Project: {
            created: string;
            id: string;
            modified: string;
            name: string;
            settings: components["schemas"]["ProjectSettings"];
        };
        ProjectErasure: {
            /** @description Rows removed per table, `projects` and `api_keys` included */
            deleted: {
                [key: string]: number;
            };
            erasure: components["schemas"]["ProjectErasureRecord"];
            id: string;
            /** @description True once nothing of the project is left (`erasure.status` completed) */
            success: boolean;
        };
        ProjectErasureRecord: {
            completedAt: string | null;
            /** @description The objects erased (threads count as dialogues); final once `completed` */
            counts: {
                dialogues: number;
                memories: number;
                messages: number;
            };
            createdAt: string;
            id: string;
            /** @description The erased project */
            projectId: string;
            /** @description Rows removed per table, `projects` and `api_keys` included */
            rows: {
                [key: string]: number;
            };
            /**
             * @description `completed` once nothing of the project is left
             * @enum {string}
             */
            status: "pending" | "completed";
        };
        ProjectSettings: {
            dialogueTtlSeconds?: number | null;
            immutableDialogues?: boolean;
            /** @description IPv4/IPv6 addresses or CIDRs; empty or absent means no restriction */
            ipAllowList?: string[];
            monthlyWriteQuota?: number | null;
            rateLimit?: {
                max: number;
                windowSeconds: number;
            } | null;
            /** @description D151: merged into the stored policy; null removes a rule, or the whole policy */
            retention?: {
                /** @description Dialogues unchanged for this many days are deleted whole */
                idleDialogueDays?: number | null;
                /** @description Memories not updated for this many days are deleted */
                memoryDays?: number | null;
                /** @description Messages created more than this many days ago are deleted */
                messageDays?: number | null;
                /** @description Namespaces with rules of their own; null for one removes its rules */
                namespaces?: {
                    [key: string]: {
                        /** @description Dialogues unchanged for this many days are deleted whole */
                        idleDialogueDays?: number | null;
                        /** @description Memories not updated for this many days are deleted */
                        memoryDays?: number | null;
                        /** @description Messages created more than this many days ago are deleted */
                        messageDays?: number | null;
                    } | null;
                } | null;
            } | null;
        };
        ProjectSettingsInput: {
            dialogueTtlSeconds?: number | null;
            immutableDialogues?: boolean;
            /** @description IPv4/IPv6 addresses or CIDRs; empty or absent means no restriction */
            ipAllowList?: string[];
            monthlyWriteQuota?: number | null;
            rateLimit?: {
                max: number;
                windowSeconds: number;
            } | null;
            /** @description D151: merged into the stored policy; null removes a rule, or the whole policy */
            retention?: {
                /** @description Dialogues unchanged for this many days are deleted whole */
                idleDialogueDays?: number | null;
                /** @description Memories not updated for this many days are deleted */
                memoryDays?: number | null;
                /** @description Messages created more than this many days ago are deleted */
                messageDays?: number | null;
                /** @description Namespaces with rules of their own; null for one removes its rules */
                namespaces?: {
                    [key: string]: {
                        /** @description Dialogues unchanged for this many days are deleted whole */
                        idleDialogueDays?: number | null;
                        /** @description Memories not updated for this many days are deleted */
                        memoryDays?: number | null;
                        /** @description Messages created more than this many days ago are deleted */
                        messageDays?: number | null;
                    } | null;
                } | null;
            } | null;
        };
        /** @description D151: merged into the stored policy; null removes a rule, or the whole policy */
        RetentionPolicy: {
            /** @description Dialogues unchanged for this many days are deleted whole */
            idleDialogueDays?: number | null;
            /** @description Memories not updated for this many days are deleted */
            memoryDays?: number | null;
            /** @description Messages created more than this many days ago are deleted */
            messageDays?: number | null;
            /** @description Namespaces with rules of their own; null for one removes its rules */
            namespaces?: {
                [key: string]: {
                    /** @description Dialogues unchanged for this many days are deleted whole */
                    idleDialogueDays?: number | null;
                    /** @description Memories not updated for this many days are deleted */
                    memoryDays?: number | null;
                    /** @description Messages created more than this many days ago are deleted */
                    messageDays?: number | null;
                } | null;
            } | null;
        };
        RetentionPreview: {
            /** @description The moment the ages were measured from */
            at: string;
            policy: components["schemas"]["RetentionPolicy"];
            projectId: string;
            rules: components["schemas"]["RetentionPreviewRule"][];
            total: {
                dialogues: number;
                memories: number;
                messages: number;
            };
        };
        RetentionPreviewRule: {
            count: number;
            /** @description The rule; null for expiry */
            days: number | null;
            /**
             * @description The time the rule reads
             * @enum {string}
             */
            measuredBy: "created" | "modified" | "expiresAt";
            /** @description The namespace whose own rules these are; null: the project's rules (other namespaces) */
            namespace: string | null;
            /** @description The latest time among them; null: none */
            newest: string | null;
            /** @enum {string} */
            object: "message" | "dialogue" | "memory";
            /** @description The earliest time among them (see `measuredBy`); null: none */
            oldest: string | null;
            /** @enum {string} */
            reason: "retention" | "expired";
        };
        SearchAppliedFilter: {
            /** @description UTC instants; at most one lower (gte or gt) and one upper (lte or lt) bound */
            created: {
                gt?: string;
                gte?: string;
                lt?: string;
                lte?: string;
            } | null;
            dialogueId: string | null;
            hasImage: boolean | null;
            /** @description {field: {operator: value}}; a plain value becomes $eq */
            metadata: {
                [key: string]: {
                    [key: string]: unknown;
                };
            } | null;
            /** @description UTC instants; at most one lower (gte or gt) and one upper (lte or lt) bound */
            modified: {
                gt?: string;
                gte?: string;
                lt?: string;
                lte?: string;
            } | null;
            /** @description null: the whole project */
            namespace: string | null;
            /** @description `tag` and `tags` together; a plain array becomes $all */
            tags: {
                $all?: string[];
                $in?: string[];
                $nin?: string[];
            } | null;
        };
        /** @description An ISO date or date-time (that whole day in `timezone`) or a range {gte?, gt?, lte?, lt?}; a bare date bound counts whole days, a date-time without a zone is read in `timezone` */
        SearchDateFilter: string | {
            gt?: string;
            gte?: string;
            lt?: string;
            lte?: string;
        };
        SearchMatch: {
            item: components["schemas"]["Message"];
            /** @enum {string} */
            object: "message";
            relevance: number;
        };
        /** @description Top-level fields of the searched object’s metadata: {field: value} (equal) or {field: {$eq, $ne, $in, $nin, $gt, $gte, $lt, $lte}}. Values are strings, numbers, booleans or null; $gt/$gte/$lt/$lte compare numbers with numbers and strings with strings. At most 20 fields. */
        SearchMetadataFilter: {
            [key: string]: ((string | null) | (number | null) | (boolean | null)) | {
                $eq?: (string | null) | (number | null) | (boolean | null);
                $gt?: string | number;
                $gte?: string | number;
                $in?: ((string | null) | (number | null) | (boolean | null))[];
                $lt?: string | number;
                $lte?: string | number;
                $ne?: (string | null) | (number | null) | (boolean | null);
                $nin?: ((string | null) | (number | null) | (boolean | null))[];
            };
        };
        SearchResult: {
            item: components["schemas"]["Message"];
            /** @enum {string} */
            object: "message";
            relevance: number;
        } | {
            item: components["schemas"]["Dialogue"];
            /** @description The dialogue’s best messages for the query, best first (up to 3) */
            matches: components["schemas"]["SearchMatch"][];
            /** @enum {string} */
            object: "dialogue";
            relevance: number;
        } | {
            item: components["schemas"]["Memory"];
            /** @enum {string} */
            object: "memory";
            relevance: number;
        };
        SearchResults: {
            /** @enum {string} */
            mode: "semantic" | "hybrid" | "lexical";
            /** @description How the search ran (D59) */
            request: {
                /**
                 * @description The results are the best `limit` matches by relevance, then ordered by `orderBy`
                 * @enum {string}
                 */
                candidateOrderBy: "relevance";
                filter: components["schemas"]["SearchAppliedFilter"];
                /** @enum {string} */
                order: "desc" | "asc";
                /** @enum {string} */
                orderBy: "relevance" | "created" | "modified";
            };
            results: components["schemas"]["SearchResult"][];
        };
        /** @description Tags of the searched object: an array (every tag required) or {$in, $all, $nin} (each 1-50 tags of 1-64 characters). Applies together with `tag`. */
        SearchTagsFilter: string[] | {
            /** @description Every one of these tags */
            $all?: string[];
            /** @description At least one of these tags */
            $in?: string[];
            /** @description None of these tags */
            $nin?: string[];
        };
        /**
         * @description Free-form object, at most 256 KiB as JSON
         * @example {
         *       "step": "checkout",
         *       "cart": {
         *         "items": 2
         *       },
         *       "draft": null
         *     }
         */
        StatePatch: {
            [key: string]: unknown;
        };
        Summary: {
            /** @description The summary; null when there was nothing to summarize or it failed */
            content: string | null;
            contentTokenCount: number | null;
            created: string;
            dialogueId: string;
            /** @description Why the summary failed (status `failed`) */
            error: string | null;
            /** @description `created` of the first message covered */
            fromCreated: string | null;
            id: string;
            /** @description Messages covered */
            messageCount: number;
            metadata: {
                [key: string]: unknown;
            };
            model: string;
            modified: string;
            namespace: string | null;
            projectId: string;
            /** @description `parley` (the built-in extractive summarizer) or `openai` (an OpenAI-compatible model) */
            provider: string;
            /** @description Messages covered without text to draw on */
            skippedCount: number;
            /**
             * @description Never `processing`: summaries are made synchronously
             * @enum {string}
             */
            status: "processing" | "completed" | "failed";
            /** @description Messages whose text the summary drew on */
            summarizedCount: number;
            tags: string[];
            /** @enum {string|null} */
            template: null;
            /** @description `created` of the last message covered */
            toCreated: string | null;
        };
        SummaryList: {
            items: components["schemas"]["Summary"][];
            /** @description Cursor of the next page; null on the last page */
            next: string | null;
        };
        /**
         * @example {
         *       "label": "Order #1234",
         *       "tags": [
         *         "support",
         *         "orders"
         *       ],
         *       "state": {
         *         "step": "lookup",
         *         "draft": null
         *       }
         *     }
         */
        UpdateDialogueRequest: {
            /**
             * Format: date-time
             * @description D150: ISO 8601 date-time with a zone; from then on the object answers 404 everywhere and is erased. null clears it
             */
            expiresAt?: string | null;
            /** @description D53: if given, must equal the id in the path */
            id?: string;
            /** @description At most 128 characters; null clears it */
            label?: string | null;
            /**
             * @example {
             *       "role": "user",
             *       "content": "Where is my order #1234?",
             *       "name": "Ada",
             *       "tags": [
             *         "support"
             *       ]
             *     }
             */
            message?: {
                /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
                content: (string | null) | ({
                    [key: string]: unknown;
                } | null) | ({
                    [key: string]: unknown;
                }[] | null);
                /**
                 * Format: date-time
                 * @description ISO 8601 with a zone; the time of the request if omitted
                 */
                created?: string;
                /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
                id?: string;
                /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description Speaker name */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "tool" | "developer";
                /** @description At most 50 tags of 1-64 characters */
                tags?: string[];
            };
            messages?: {
                /** @description Text, a structured object or an array of blocks, stored and returned exactly as sent. Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE. */
                content: (string | null) | ({
                    [key: string]: unknown;
                } | null) | ({
                    [key: string]: unknown;
                }[] | null);
                /**
                 * Format: date-time
                 * @description ISO 8601 with a zone; the time of the request if omitted
                 */
                created?: string;
                /** @description Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted */
                id?: string;
                /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description Speaker name */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "tool" | "developer";
                /** @description At most 50 tags of 1-64 characters */
                tags?: string[];
            }[];
            /** @description D53: if given, must equal the dialogue's namespace (it cannot change) */
            namespace?: string | null;
            /** @description Merged into the state as a JSON Merge Patch (RFC 7396) */
            state?: {
                [key: string]: unknown;
            };
            /** @description Replaces the whole list */
            tags?: string[];
        };
        /**
         * @example {
         *       "tags": [
         *         "billing",
         *         "resolved"
         *       ]
         *     }
         */
        UpdateMessageTagsRequest: {
            /** @description At most 50 tags of 1-64 characters */
            tags: string[];
        };
        Usage: {
            /** @description The UTC month counted, YYYY-MM */
            month: string;
            monthlyWriteQuota: number | null;
            projectId: string;
            /** @description Writes left this month; null without a quota */
            remaining: number | null;
            /** @description When the count starts again: the first moment of the next UTC month */
            resetsAt: string;
            /** @description Write requests counted this month (D44) */
            writes: number;
        };
        Webhook: {
            created: string;
            description: string | null;
            /** @description Why delivery stopped, when Parley disabled it (D68) */
            disabledReason: string | null;
            enabled: boolean;
            /** @example whk_01jf3c9r0d6e8x2v7m4k5n1p0q */
            id: string;
            modified: string;
            namespace: string | null;
            types: string[];
            url: string;
        };
        WebhookDeliveryAttempt: {
            attempt: number;
            /** @description When the attempt was made (or, pending, scheduled) */
            created: string;
            durationMs: number | null;
            error: string | null;
            eventId: string;
            id: string;
            responseStatus: number | null;
            /** @description null for a `webhook.test` event */
            seq: number | null;
            /** @enum {string} */
            status: "succeeded" | "failed" | "pending";
            type: string;
        };
        WebhookDeliveryList: {
            items: components["schemas"]["WebhookDeliveryAttempt"][];
            /** @description Pass as `next` for older attempts; null at the end */
            next: string | null;
        };
        WebhookList: {
            items: components["schemas"]["Webhook"][];
        };
        WebhookReplay: {
            /** @description The last seq considered: pass it as `after` to queue more when the cap of 10,000 was hit */
            next: number;
            /** @description Events queued for delivery */
            queued: number;
        };
        WebhookWithSecret: {
            created: string;
            description: string | null;
            /** @description Why delivery stopped, when Parley disabled it (D68) */
            disabledReason: string | null;
            enabled: boolean;
            /** @example whk_01jf3c9r0d6e8x2v7m4k5n1p0q */
            id: string;
            modified: string;
            namespace: string | null;
            /** @description `whsec_` + base64: the signing secret, shown only in this answer (D67) */
            secret: string;
            types: string[];
            url: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    adminGetProjectErasure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `ProjectErasureRecord` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectErasureRecord"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_NOT_FOUND",
                     *         "message": "resource not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRevokeKeyByValue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The key itself, as the client sends it */
                    apiKey: string;
                };
            };
        };
        responses: {
            /** @description OK: revoke an API key given by its value, whichever project it belongs to (D83) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        projectId: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `API_KEY_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "API_KEY_NOT_FOUND",
                     *         "message": "api key not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: list projects */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Project"][];
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCreateProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    settings?: components["schemas"]["ProjectSettingsInput"];
                };
            };
        };
        responses: {
            /** @description Created: create a project and its first API key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The first key: shown once, stored only as a hash */
                        apiKey: string;
                        /** @description The id of that key, to list or revoke it (D83) */
                        keyId: string;
                        project: components["schemas"]["Project"];
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Project` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminEraseProject: {
        parameters: {
            query: {
                /** @description The project id again: the erasure cannot be undone */
                confirm: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `ProjectErasure` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectErasure"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminUpdateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    settings?: components["schemas"]["ProjectSettingsInput"];
                };
            };
        };
        responses: {
            /** @description OK: the `Project` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: list a project's API keys, revoked ones included (D83) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: create another API key for a project */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key itself: shown once, stored only as a hash */
                        apiKey: string;
                        id: string;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: revoke an API key at once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND`, `API_KEY_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminPreviewRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `RetentionPreview` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionPreview"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminPreviewProposedRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    retention: components["schemas"]["RetentionPolicy"];
                };
            };
        };
        responses: {
            /** @description OK: the `RetentionPreview` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionPreview"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Usage` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "ORIGIN_NOT_ALLOWED",
                     *         "message": "origin not allowed",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PROJECT_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PROJECT_NOT_FOUND",
                     *         "message": "project not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDialogues: {
        parameters: {
            query?: {
                /** @description D58: only items created on this UTC day (`YYYY-MM-DD`; a date-time stands for its UTC day) */
                created?: string;
                /** @description Creation time: a UTC day `YYYY-MM-DD`, or an ISO 8601 interval `start/end` of dates or date-times (`start/` and `/end` leave one side open; a date-time end is exclusive, a date end includes that day) */
                date?: string;
                /** @description D58: only items created at or before this ISO 8601 instant (a bare date: that whole UTC day) */
                endDate?: string;
                /** @description D160: only forks of this dialogue */
                forkedFrom?: string;
                /** @description Items per page (default 20, max 100) */
                limit?: number;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
                /** @description Cursor from the previous page */
                next?: string;
                /** @description Sort order (default desc) */
                order?: "asc" | "desc";
                /** @description `threads` lists only threads */
                query?: "default" | "threads";
                /** @description D58: only items created at or after this ISO 8601 instant (a bare date: its midnight UTC) */
                startDate?: string;
                status?: "active" | "ended" | "canceled" | "expired" | "deleted";
                /** @description Repeatable: every given tag must be present */
                tag?: string | string[];
                /** @description Only threads of this dialogue */
                threadOf?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `DialogueList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDialogue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDialogueRequest"];
            };
        };
        responses: {
            /** @description Created: the `DialogueWithMessages` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueWithMessages"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `PARENT_DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "PARENT_DIALOGUE_NOT_FOUND",
                     *         "message": "parent dialogue not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDialogueMessages: {
        parameters: {
            query?: {
                /** @description D58: only items created on this UTC day (`YYYY-MM-DD`; a date-time stands for its UTC day) */
                created?: string;
                /** @description D58: only items created at or before this ISO 8601 instant (a bare date: that whole UTC day) */
                endDate?: string;
                /** @description Items per page (default 50, max 200) */
                limit?: number;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
                /** @description Cursor from the previous page */
                next?: string;
                /** @description Sort order (default asc) */
                order?: "asc" | "desc";
                /** @description D58: only items created at or after this ISO 8601 instant (a bare date: its midnight UTC) */
                startDate?: string;
            };
            header?: never;
            path: {
                dialogueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `MessageList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDialogueMessage: {
        parameters: {
            query?: {
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                dialogueId: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: delete one message permanently (same as DELETE /message/{messageId}?dialogueId=) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dialogueId: string;
                        id: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DIALOGUE_IMMUTABLE` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDialogue: {
        parameters: {
            query?: {
                /** @description The 10 most recent messages (default) or the first 10, oldest first either way */
                messages?: "last" | "first";
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `DialogueWithMessages` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueWithMessages"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDialogue: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDialogueRequest"];
            };
        };
        responses: {
            /** @description OK: the `DialogueWithMessages` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueWithMessages"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDialogue: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: delete a dialogue and its messages permanently; its threads remain */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compactDialogue: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Dialogue` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model failed. Codes: `UPSTREAM_ERROR` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_ERROR",
                     *         "message": "upstream error",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model did not answer in time. Codes: `UPSTREAM_TIMEOUT` */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_TIMEOUT",
                     *         "message": "upstream timeout",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compactDialoguePost: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Dialogue` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model failed. Codes: `UPSTREAM_ERROR` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_ERROR",
                     *         "message": "upstream error",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model did not answer in time. Codes: `UPSTREAM_TIMEOUT` */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_TIMEOUT",
                     *         "message": "upstream timeout",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDialogueContext: {
        parameters: {
            query?: {
                /** @description `messages`: OpenAI chat messages, summary first as a system message; `anthropic`: `system` text plus user/assistant turns; `text`: one transcript */
                format?: "messages" | "anthropic" | "text";
                /** @description Token budget (o200k_base, the summarizer tokenizer) for the summary and the messages together; default 4,000 */
                maxTokens?: number;
                /** @description When given, must be the dialogue's namespace (D53) */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `DialogueContext` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueContext"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    continueDialogue: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: the `DialogueWithMessages` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueWithMessages"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model failed. Codes: `UPSTREAM_ERROR` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_ERROR",
                     *         "message": "upstream error",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model did not answer in time. Codes: `UPSTREAM_TIMEOUT` */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_TIMEOUT",
                     *         "message": "upstream timeout",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    continueDialoguePost: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: the `DialogueWithMessages` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DialogueWithMessages"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model failed. Codes: `UPSTREAM_ERROR` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_ERROR",
                     *         "message": "upstream error",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upstream model did not answer in time. Codes: `UPSTREAM_TIMEOUT` */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UPSTREAM_TIMEOUT",
                     *         "message": "upstream timeout",
                     *         "type": "server_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    endDialogue: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Dialogue` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DIALOGUE_ENDED` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    endDialoguePost: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Dialogue` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DIALOGUE_ENDED` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    forkDialogue: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForkDialogueRequest"];
            };
        };
        responses: {
            /** @description Created: the `Dialogue` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDialogueState: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatePatch"];
            };
        };
        responses: {
            /** @description OK: the `Dialogue` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDialogueStatePost: {
        parameters: {
            query?: {
                /** @description D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatePatch"];
            };
        };
        responses: {
            /** @description OK: the `Dialogue` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dialogue"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getErasure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Erasure` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Erasure"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_NOT_FOUND",
                     *         "message": "resource not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Events after this seq: the `next` of the previous answer; 0 or absent: from the oldest kept */
                after?: number;
                /** @description A dialogue's events: its own and its messages' */
                dialogueId?: string;
                /** @description Items per page (default 100, max 1000) */
                limit?: number;
                /** @description Events of objects in this namespace */
                namespace?: string;
                /** @description Repeatable: events of any of the given types */
                type?: ("dialogue.created" | "dialogue.updated" | "dialogue.ended" | "dialogue.deleted" | "dialogue.compacted" | "dialogue.continued" | "message.created" | "message.updated" | "message.deleted" | "memory.created" | "memory.updated" | "memory.deleted" | "namespace.erased" | "dialogue.*" | "message.*" | "memory.*" | "namespace.*") | ("dialogue.created" | "dialogue.updated" | "dialogue.ended" | "dialogue.deleted" | "dialogue.compacted" | "dialogue.continued" | "message.created" | "message.updated" | "message.deleted" | "memory.created" | "memory.updated" | "memory.deleted" | "namespace.erased" | "dialogue.*" | "message.*" | "memory.*" | "namespace.*")[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `EventList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. Codes: `EVENTS_EXPIRED` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "EVENTS_EXPIRED",
                     *         "message": "Events after seq 12 have been pruned; the oldest kept seq is 40 (pass after=0 to read from it)",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Resume after this seq (0: from the oldest kept); a Last-Event-ID header wins over it. Without either the stream starts at the next new event */
                after?: number;
                /** @description A dialogue's events: its own and its messages' */
                dialogueId?: string;
                /** @description Events of objects in this namespace */
                namespace?: string;
                /** @description Repeatable: events of any of the given types */
                type?: ("dialogue.created" | "dialogue.updated" | "dialogue.ended" | "dialogue.deleted" | "dialogue.compacted" | "dialogue.continued" | "message.created" | "message.updated" | "message.deleted" | "memory.created" | "memory.updated" | "memory.deleted" | "namespace.erased" | "dialogue.*" | "message.*" | "memory.*" | "namespace.*") | ("dialogue.created" | "dialogue.updated" | "dialogue.ended" | "dialogue.deleted" | "dialogue.compacted" | "dialogue.continued" | "message.created" | "message.updated" | "message.deleted" | "memory.created" | "memory.updated" | "memory.deleted" | "namespace.erased" | "dialogue.*" | "message.*" | "memory.*" | "namespace.*")[];
            };
            header?: {
                /** @description The seq of the last event received */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A text/event-stream of events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. Codes: `EVENTS_EXPIRED` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "EVENTS_EXPIRED",
                     *         "message": "Events after seq 12 have been pruned; the oldest kept seq is 40 (pass after=0 to read from it)",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMemories: {
        parameters: {
            query?: {
                /** @description D58: only items created on this UTC day (`YYYY-MM-DD`; a date-time stands for its UTC day) */
                created?: string;
                /** @description D58: only items created at or before this ISO 8601 instant (a bare date: that whole UTC day) */
                endDate?: string;
                label?: string;
                /** @description Items per page (default 20, max 100) */
                limit?: number;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
                /** @description Cursor from the previous page */
                next?: string;
                /** @description Sort order (default desc) */
                order?: "asc" | "desc";
                /** @description D58: only items created at or after this ISO 8601 instant (a bare date: its midnight UTC) */
                startDate?: string;
                /** @description Only items carrying this tag; repeat it to require several */
                tag?: string | string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: list memories, newest first by default */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Memory"][];
                        next: string | null;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMemory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 1,024 characters; searchable (D57) */
                    description?: string;
                    /**
                     * Format: date-time
                     * @description D150: ISO 8601 date-time with a zone; from then on the object answers 404 everywhere and is erased. null clears it
                     */
                    expiresAt?: string;
                    /** @description D57: your own id (1-128 characters of A-Za-z0-9._:-); taken: 409 DUPLICATE_ID. Generated if omitted */
                    id?: string;
                    label?: string;
                    /** @description Free-form object, at most 16 KiB as JSON; immutable after creation */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Namespace, 1-128 characters */
                    namespace?: string;
                    /** @description At most 50 tags of 1-64 characters */
                    tags?: string[];
                    /** @description Any JSON value (text, number, boolean, object, array), stored and returned exactly as sent; at most 65,536 bytes (a string by its UTF-8 bytes, anything else by its JSON text). null, "", [] and {} are refused (D57). */
                    value: string | number | boolean | {
                        [key: string]: unknown;
                    } | unknown[];
                };
            };
        };
        responses: {
            /** @description Created: the `Memory` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: {
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Memory` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `MEMORY_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "MEMORY_NOT_FOUND",
                     *         "message": "memory not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMemory: {
        parameters: {
            query?: {
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description null clears it */
                    description?: string | null;
                    /**
                     * Format: date-time
                     * @description D150: ISO 8601 date-time with a zone; from then on the object answers 404 everywhere and is erased. null clears it
                     */
                    expiresAt?: string | null;
                    label?: string | null;
                    /** @description At most 50 tags of 1-64 characters */
                    tags?: string[];
                    /** @description Any JSON value (text, number, boolean, object, array), stored and returned exactly as sent; at most 65,536 bytes (a string by its UTF-8 bytes, anything else by its JSON text). null, "", [] and {} are refused (D57). */
                    value?: string | number | boolean | {
                        [key: string]: unknown;
                    } | unknown[];
                };
            };
        };
        responses: {
            /** @description OK: the `Memory` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `MEMORY_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "MEMORY_NOT_FOUND",
                     *         "message": "memory not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMemory: {
        parameters: {
            query?: {
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: delete a memory, with its embedding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `MEMORY_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "MEMORY_NOT_FOUND",
                     *         "message": "memory not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMessage: {
        parameters: {
            query?: {
                /** @description The dialogue, if the body does not name it (D54, D55) */
                dialogueId?: string;
                /** @description Must equal the dialogue's namespace (D34) */
                namespace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMessageRequest"];
            };
        };
        responses: {
            /** @description Created: the `Message` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER`, `MESSAGE_CONTENT_EMPTY`, `MESSAGE_TOO_LARGE` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DIALOGUE_ENDED`, `DIALOGUE_IMMUTABLE`, `DIALOGUE_EXPIRED`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMessage: {
        parameters: {
            query: {
                dialogueId: string;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Message` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMessageTags: {
        parameters: {
            query: {
                dialogueId: string;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMessageTagsRequest"];
            };
        };
        responses: {
            /** @description OK: the `Message` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMessage: {
        parameters: {
            query: {
                dialogueId: string;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
            };
            header?: never;
            path: {
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: delete one message permanently */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dialogueId: string;
                        id: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DIALOGUE_IMMUTABLE` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query: {
                /** @description D58: only items created on this UTC day (`YYYY-MM-DD`; a date-time stands for its UTC day) */
                created?: string;
                dialogueId: string;
                /** @description D58: only items created at or before this ISO 8601 instant (a bare date: that whole UTC day) */
                endDate?: string;
                /** @description Items per page (default 50, max 200) */
                limit?: number;
                /** @description Namespace, 1-128 characters */
                namespace?: string;
                /** @description Cursor from the previous page */
                next?: string;
                /** @description Sort order (default asc) */
                order?: "asc" | "desc";
                /** @description D58: only items created at or after this ISO 8601 instant (a bare date: its midnight UTC) */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `MessageList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMessages: {
        parameters: {
            query?: {
                /** @description The dialogue, if the body does not name it (D54, D55) */
                dialogueId?: string;
                /** @description Must equal the dialogue's namespace (D34) */
                namespace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMessagesBody"];
            };
        };
        responses: {
            /** @description Created: add 1-100 messages to a dialogue, all or nothing */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedMessages"] | components["schemas"]["CreatedMessagesArray"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER`, `MESSAGE_CONTENT_EMPTY`, `MESSAGE_TOO_LARGE`, `TOO_MANY_MESSAGES`, `INVALID_MESSAGE_ARRAY`, `EMPTY_MESSAGE_ARRAY` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT`, `DIALOGUE_ENDED`, `DIALOGUE_IMMUTABLE`, `DIALOGUE_EXPIRED`, `DUPLICATE_ID` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    eraseNamespace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Namespace, 1-128 characters */
                namespace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Erasure` */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Erasure"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only messages of this dialogue (object=message); a namespaced dialogue must be named with its `namespace` (D34) */
                    dialogueId?: string;
                    /** @description Filters on the searched object’s own dates and content */
                    filter?: {
                        created?: components["schemas"]["SearchDateFilter"];
                        /** @description A message has an image when its content holds a block of type image, image_url or input_image; a dialogue, when one of its messages does; a memory never does */
                        hasImage?: boolean;
                        modified?: components["schemas"]["SearchDateFilter"];
                    };
                    /** @default 10 */
                    limit?: number;
                    metadata?: components["schemas"]["SearchMetadataFilter"];
                    /** @default 0 */
                    minRelevance?: number;
                    /** @description Search only this namespace; without it, the whole project (D51) */
                    namespace?: string;
                    /**
                     * @default message
                     * @enum {string}
                     */
                    object?: "message" | "dialogue" | "memory";
                    /**
                     * @description desc (default) or asc
                     * @default desc
                     * @enum {string}
                     */
                    order?: "desc" | "asc";
                    /**
                     * @description The best `limit` matches by relevance are ordered by this field (default relevance)
                     * @default relevance
                     * @enum {string}
                     */
                    orderBy?: "relevance" | "created" | "modified";
                    query: string;
                    /** @description Only items carrying every given tag (a string or an array) */
                    tag?: string | string[];
                    tags?: components["schemas"]["SearchTagsFilter"];
                    /**
                     * @description IANA time zone in which dates of `filter` are read (default UTC)
                     * @default UTC
                     */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description OK: the `SearchResults` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResults"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER`, `SEARCH_QUERY_TOO_SHORT` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSummaries: {
        parameters: {
            query: {
                dialogueId: string;
                /** @description Items per page (default 20, max 100) */
                limit?: number;
                /** @description When given, must be the dialogue's namespace (D53) */
                namespace?: string;
                /** @description Cursor from the previous page */
                next?: string;
                /** @description Sort order (default desc) */
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `SummaryList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SummaryList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSummaryRequest"];
            };
        };
        responses: {
            /** @description OK: the `Summary` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Summary"];
                };
            };
            /** @description Created: the `Summary` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Summary"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED`, `PLAN_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSummary: {
        parameters: {
            query?: {
                /** @description When given, must be the dialogue's namespace (D53) */
                namespace?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Summary` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Summary"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `SUMMARY_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SUMMARY_NOT_FOUND",
                     *         "message": "summary not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `WebhookList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    /** @description Only events of objects in this namespace */
                    namespace?: string;
                    /** @description Event types to deliver (`message.*` for a resource); empty or absent: every type */
                    types?: ("dialogue.created" | "dialogue.updated" | "dialogue.ended" | "dialogue.deleted" | "dialogue.compacted" | "dialogue.continued" | "message.created" | "message.updated" | "message.deleted" | "memory.created" | "memory.updated" | "memory.deleted" | "namespace.erased" | "dialogue.*" | "message.*" | "memory.*" | "namespace.*")[];
                    /** @description https:// URL; must not resolve to a loopback, private, link-local or metadata address (D69) */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created: the `WebhookWithSecret` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `Webhook` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: delete a webhook endpoint, its pending deliveries and its log */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        success: boolean;
                    };
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description true again after a disable: delivery resumes with new events */
                    enabled?: boolean;
                    /** @description null: events of every namespace */
                    namespace?: string | null;
                    /** @description Event types to deliver (`message.*` for a resource); empty or absent: every type */
                    types?: ("dialogue.created" | "dialogue.updated" | "dialogue.ended" | "dialogue.deleted" | "dialogue.compacted" | "dialogue.continued" | "message.created" | "message.updated" | "message.deleted" | "memory.created" | "memory.updated" | "memory.deleted" | "namespace.erased" | "dialogue.*" | "message.*" | "memory.*" | "namespace.*")[];
                    /** @description https:// URL; must not resolve to a loopback, private, link-local or metadata address (D69) */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description OK: the `Webhook` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Items per page (default 50, max 200) */
                limit?: number;
                /** @description The `next` of the previous page */
                next?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `WebhookDeliveryList` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Re-send the events after this seq */
                    after: number;
                };
            };
        };
        responses: {
            /** @description OK: the `WebhookReplay` */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReplay"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. Codes: `EVENTS_EXPIRED` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "EVENTS_EXPIRED",
                     *         "message": "Events after seq 12 have been pruned; the oldest kept seq is 40 (pass after=0 to read from it)",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `WebhookWithSecret` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the `WebhookDeliveryAttempt` */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryAttempt"];
                };
            };
            /** @description The request is invalid. Codes: `INVALID_INPUT`, `INVALID_PARAMETER`, `MISSING_PARAMETER` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "INVALID_INPUT",
                     *         "message": "role: Invalid option: expected one of \"user\"|\"assistant\"|\"system\"|\"tool\"|\"developer\"",
                     *         "type": "validation_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is missing, unknown or revoked. Codes: `UNAUTHORIZED` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "UNAUTHORIZED",
                     *         "message": "Missing or invalid API key",
                     *         "type": "authentication_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused: the address is not allowed for this key, or the Origin or Host is foreign. Codes: `IP_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED`, `HOST_NOT_ALLOWED` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "IP_NOT_ALLOWED",
                     *         "message": "Requests from this address are not allowed for this key",
                     *         "type": "authorization_error",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. Codes: `DIALOGUE_NOT_FOUND`, `MESSAGE_NOT_FOUND`, `MEMORY_NOT_FOUND`, `SUMMARY_NOT_FOUND`, `PROJECT_NOT_FOUND`, `PARENT_DIALOGUE_NOT_FOUND`, `API_KEY_NOT_FOUND`, `RESOURCE_NOT_FOUND` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "DIALOGUE_NOT_FOUND",
                     *         "message": "Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found",
                     *         "type": "not_found",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. Codes: `RESOURCE_CONFLICT` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RESOURCE_CONFLICT",
                     *         "message": "resource conflict",
                     *         "type": "conflict",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests or over the plan quota; retry after Retry-After seconds. Codes: `RATE_LIMIT_EXCEEDED` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "RATE_LIMIT_EXCEEDED",
                     *         "message": "Rate limit exceeded, retry in 12 seconds",
                     *         "type": "rate_limit_exceeded",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded, shutting down or without its database; retry after Retry-After seconds. Codes: `SERVICE_UNAVAILABLE` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "SERVICE_UNAVAILABLE",
                     *         "message": "The server is overloaded; retry the request",
                     *         "type": "service_unavailable",
                     *         "requestId": "req_01jf3c9r0d6e8x2v7m4k5n1p0q",
                     *         "timestamp": "2026-01-15T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
