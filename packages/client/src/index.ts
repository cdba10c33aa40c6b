import createClient from 'openapi-fetch';
import { serverSentEvents } from './event-stream.js';
import type { components, operations, paths } from './schema.js';

// The first-party TypeScript client, `@parley/client`: typed by the types generated from the
// server's OpenAPI document (schema.d.ts, `npm run client:generate` at the repository's root), calls
// made by openapi-fetch, its only dependency. It uses only what the web platform has (fetch, streams,
// TextDecoder, crypto), so it runs in Node 20+, Bun, Deno and browsers alike.

export type { components, operations, paths };
type Schemas = components['schemas'];
export type Dialogue = Schemas['Dialogue'];
export type DialogueWithMessages = Schemas['DialogueWithMessages'];
export type Message = Schemas['Message'];
export type Memory = Schemas['Memory'];
export type Summary = Schemas['Summary'];
export type ParleyEvent = Schemas['Event'];
export type ErrorEnvelope = Schemas['Error'];
// --- data lifecycle (D150-D154) ---
export type RetentionPolicy = Schemas['RetentionPolicy'];
export type RetentionPreview = Schemas['RetentionPreview'];
// --- end data lifecycle ---

type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;
type Body<K extends keyof operations> = operations[K] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** A failed call: the server's error envelope (D11) with the HTTP status. */
export class ParleyError extends Error {
  readonly code: string;
  readonly type: string;
  readonly requestId: string | undefined;
  readonly details: { field: string; code: string; message: string }[];

  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | undefined,
    fallbackMessage = `HTTP ${status}`,
  ) {
    super(envelope?.error.message ?? fallbackMessage);
    this.name = 'ParleyError';
    this.code = envelope?.error.code ?? `HTTP_${status}`;
    this.type = envelope?.error.type ?? (status >= 500 ? 'server_error' : 'validation_error');
    this.requestId = envelope?.error.requestId;
    this.details = envelope?.error.details ?? [];
  }
}

export interface ParleyOptions {
  /** The server's address, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A project API key: the REST API. */
  apiKey?: string;
  /** The server's ADMIN_TOKEN: the `admin` group. */
  adminToken?: string;
  /** Retries of a call answered 429 or 5xx, or lost on the network (default 3). */
  maxRetries?: number;
  /** Longest wait before a retry, in ms, whatever Retry-After says (default 30 000). */
  maxRetryDelayMs?: number;
  /** The fetch to call (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Retry-After in ms (seconds or an HTTP date); without one, exponential backoff from 250 ms. */
function retryDelay(response: Response | undefined, attempt: number, maxMs: number): number {
  const header = response?.headers.get('retry-after');
  let ms = 250 * 2 ** attempt;
  if (header) {
    const seconds = Number(header);
    ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  }
  return Math.min(Math.max(ms, 0), maxMs);
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * A fetch that retries 429, 5xx and network failures, waiting what Retry-After says, at most
 * `maxRetries` times. The request is sent again as it was, Idempotency-Key included: a create whose
 * answer was lost is replayed by the server, not made twice (D75).
 */
function retryingFetch(
  send: (request: Request) => Promise<Response>,
  maxRetries: number,
  maxDelayMs: number,
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response | undefined;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
      }
      if (response && (last || !RETRIED_STATUSES.has(response.status))) return response;
      // The body of a refused attempt is not read: release it.
      await response?.body?.cancel();
      await sleep(retryDelay(response, attempt, maxDelayMs), request.signal);
    }
  };
}

type Page<T> = { items: T[]; next: string | null };

/** Each item of a cursor-paged list, page after page, following `next` (D8). */
async function* paged<T>(load: (next: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let next: string | undefined;
  do {
    const page = await load(next);
    yield* page.items;
    next = page.next ?? undefined;
  } while (next);
}

const idempotency = () => ({ 'Idempotency-Key': globalThis.crypto.randomUUID() });

export interface StreamOptions extends Omit<Query<'streamEvents'>, 'after'> {
  /** Resume after this seq (the `seq`, which is the SSE `id`, of the last event received). */
  after?: number;
  /** Ends the stream. */
  signal?: AbortSignal;
  /**
   * Called each time the server has accepted the stream (at the start and after a reconnection):
   * every event committed from then on will be delivered. Read a snapshot after the first call and
   * nothing written in between is missed.
   */
  onOpen?: () => void;
}

/** The Parley REST API, grouped by resource. Every method throws a ParleyError on failure. */
export class Parley {
  private readonly http: ReturnType<typeof createClient<paths>>;
  private readonly send: (request: Request) => Promise<Response>;
  private readonly baseUrl: string;

  constructor(private readonly options: ParleyOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.send = retryingFetch(
      options.fetch ?? ((request) => globalThis.fetch(request)),
      options.maxRetries ?? 3,
      options.maxRetryDelayMs ?? 30_000,
    );
    this.http = createClient<paths>({ baseUrl: this.baseUrl, fetch: this.send });
    const token = (path: string) => (path.startsWith('/admin/') ? options.adminToken : options.apiKey);
    this.http.use({
      onRequest: ({ request, schemaPath }) => {
        const value = token(schemaPath);
        if (value) request.headers.set('authorization', `Bearer ${value}`);
        return request;
      },
    });
  }

  /** The answer's data, or its error envelope thrown as a ParleyError. */
  private async call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await pending;
    if (response.ok) return data as T;
    const envelope = (error as ErrorEnvelope | undefined)?.error ? (error as ErrorEnvelope) : undefined;
    throw new ParleyError(response.status, envelope, typeof error === 'string' ? error : undefined);
  }

  readonly dialogues = {
    create: (body: Body<'createDialogue'> = {}) =>
      this.call(this.http.POST('/api/v1/dialogue', { body, headers: idempotency() })),
    page: (query: Query<'listDialogues'> = {}) =>
      this.call(this.http.GET('/api/v1/dialogue', { params: { query } })),
    /** Every dialogue the query selects, across pages. */
    list: (query: Omit<Query<'listDialogues'>, 'next'> = {}) =>
      paged((next) => this.dialogues.page({ ...query, next })),
    get: (id: string, query: Query<'getDialogue'> = {}) =>
      this.call(this.http.GET('/api/v1/dialogue/{id}', { params: { path: { id }, query } })),
    update: (id: string, body: Body<'updateDialogue'>, query: Query<'updateDialogue'> = {}) =>
      this.call(this.http.PUT('/api/v1/dialogue/{id}', { params: { path: { id }, query }, body })),
    delete: (id: string, query: Query<'deleteDialogue'> = {}) =>
      this.call(this.http.DELETE('/api/v1/dialogue/{id}', { params: { path: { id }, query } })),
    context: (id: string, query: Query<'getDialogueContext'> = {}) =>
      this.call(this.http.GET('/api/v1/dialogue/{id}/context', { params: { path: { id }, query } })),
    setState: (id: string, body: Body<'updateDialogueState'>, query: Query<'updateDialogueState'> = {}) =>
      this.call(this.http.PUT('/api/v1/dialogue/{id}/state', { params: { path: { id }, query }, body })),
    end: (id: string, query: Query<'endDialogue'> = {}) =>
      this.call(this.http.PUT('/api/v1/dialogue/{id}/end', { params: { path: { id }, query } })),
    compact: (id: string, query: Query<'compactDialogue'> = {}) =>
      this.call(this.http.PUT('/api/v1/dialogue/{id}/compact', { params: { path: { id }, query } })),
    continue: (id: string, query: Query<'continueDialogue'> = {}) =>
      this.call(
        this.http.PUT('/api/v1/dialogue/{id}/continue', {
          params: { path: { id }, query },
          headers: idempotency(),
        }),
      ),
    // D160: a new dialogue holding copies of this one's messages, up to `upToMessageId` when given.
    fork: (id: string, body: Body<'forkDialogue'> = {}, query: Query<'forkDialogue'> = {}) =>
      this.call(
        this.http.POST('/api/v1/dialogue/{id}/fork', {
          params: { path: { id }, query },
          body,
          headers: idempotency(),
        }),
      ),
  };

  readonly messages = {
    create: (body: Body<'createMessage'>, query: Query<'createMessage'> = {}) =>
      this.call(this.http.POST('/api/v1/message', { params: { query }, body, headers: idempotency() })),
    /** Up to 100 messages in one call: `{ dialogueId, messages }` or a bare array (D55). */
    createMany: (body: Body<'createMessages'>, query: Query<'createMessages'> = {}) =>
      this.call(this.http.POST('/api/v1/messages', { params: { query }, body, headers: idempotency() })),
    page: (query: Query<'listMessages'>) =>
      this.call(this.http.GET('/api/v1/messages', { params: { query } })),
    /** Every message of a dialogue, across pages. */
    list: (query: Omit<Query<'listMessages'>, 'next'>) =>
      paged((next) => this.messages.page({ ...query, next })),
    pageOfDialogue: (dialogueId: string, query: Query<'listDialogueMessages'> = {}) =>
      this.call(
        this.http.GET('/api/v1/dialogue/{dialogueId}/messages', { params: { path: { dialogueId }, query } }),
      ),
    get: (messageId: string, query: Query<'getMessage'>) =>
      this.call(this.http.GET('/api/v1/message/{messageId}', { params: { path: { messageId }, query } })),
    updateTags: (messageId: string, body: Body<'updateMessageTags'>, query: Query<'updateMessageTags'>) =>
      this.call(
        this.http.PUT('/api/v1/message/{messageId}', { params: { path: { messageId }, query }, body }),
      ),
    delete: (messageId: string, query: Query<'deleteMessage'>) =>
      this.call(this.http.DELETE('/api/v1/message/{messageId}', { params: { path: { messageId }, query } })),
    deleteFromDialogue: (dialogueId: string, messageId: string, query: Query<'deleteDialogueMessage'> = {}) =>
      this.call(
        this.http.DELETE('/api/v1/dialogue/{dialogueId}/messages/{messageId}', {
          params: { path: { dialogueId, messageId }, query },
        }),
      ),
  };

  // D162: forgetting an end user; the erasure runs in the background, its record tells how far it is.
  readonly namespaces = {
    erase: (namespace: string) =>
      this.call(
        this.http.DELETE('/api/v1/namespaces/{namespace}', {
          params: { path: { namespace } },
          headers: idempotency(),
        }),
      ),
  };

  readonly erasures = {
    get: (id: string) => this.call(this.http.GET('/api/v1/erasures/{id}', { params: { path: { id } } })),
  };

  readonly memories = {
    create: (body: Body<'createMemory'>) =>
      this.call(this.http.POST('/api/v1/memory', { body, headers: idempotency() })),
    page: (query: Query<'listMemories'> = {}) =>
      this.call(this.http.GET('/api/v1/memory', { params: { query } })),
    /** Every memory the query selects, across pages. */
    list: (query: Omit<Query<'listMemories'>, 'next'> = {}) =>
      paged((next) => this.memories.page({ ...query, next })),
    get: (id: string, query: Query<'getMemory'> = {}) =>
      this.call(this.http.GET('/api/v1/memory/{id}', { params: { path: { id }, query } })),
    update: (id: string, body: Body<'updateMemory'>, query: Query<'updateMemory'> = {}) =>
      this.call(this.http.PUT('/api/v1/memory/{id}', { params: { path: { id }, query }, body })),
    delete: (id: string, query: Query<'deleteMemory'> = {}) =>
      this.call(this.http.DELETE('/api/v1/memory/{id}', { params: { path: { id }, query } })),
  };

  readonly summaries = {
    create: (body: Body<'createSummary'>) =>
      this.call(this.http.POST('/api/v1/summary', { body, headers: idempotency() })),
    page: (query: Query<'listSummaries'>) =>
      this.call(this.http.GET('/api/v1/summary', { params: { query } })),
    /** Every summary of a dialogue, across pages. */
    list: (query: Omit<Query<'listSummaries'>, 'next'>) =>
      paged((next) => this.summaries.page({ ...query, next })),
    get: (id: string, query: Query<'getSummary'> = {}) =>
      this.call(this.http.GET('/api/v1/summary/{id}', { params: { path: { id }, query } })),
  };

  /** Semantic and full-text search over messages, dialogues and memories. */
  search = (body: Body<'search'>) => this.call(this.http.POST('/api/v1/search', { body }));

  readonly events = {
    page: (query: Query<'listEvents'> = {}) =>
      this.call(this.http.GET('/api/v1/events', { params: { query } })),
    /** The feed from `after` (0: the oldest kept) up to the newest event, page after page (D65). */
    list: (query: Query<'listEvents'> = {}) => this.feed(query),
    /**
     * Events as they happen (D66), for as long as the loop runs or `signal` allows: a dropped
     * connection is reopened with Last-Event-ID, so that no event is lost or repeated.
     */
    stream: (options: StreamOptions = {}) => this.streamEvents(options),
  };

  readonly webhooks = {
    create: (body: Body<'createWebhook'>) =>
      this.call(this.http.POST('/api/v1/webhooks', { body, headers: idempotency() })),
    list: () => this.call(this.http.GET('/api/v1/webhooks')),
    get: (id: string) => this.call(this.http.GET('/api/v1/webhooks/{id}', { params: { path: { id } } })),
    update: (id: string, body: Body<'updateWebhook'>) =>
      this.call(this.http.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body })),
    delete: (id: string) =>
      this.call(this.http.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } })),
    deliveries: (id: string, query: Query<'listWebhookDeliveries'> = {}) =>
      this.call(this.http.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } })),
    /** Sends the endpoint a `webhook.test` event now. */
    test: (id: string) =>
      this.call(this.http.POST('/api/v1/webhooks/{id}/test', { params: { path: { id } } })),
    /** Delivers again the endpoint's events after seq `after`. */
    replay: (id: string, body: Body<'replayWebhook'>) =>
      this.call(this.http.POST('/api/v1/webhooks/{id}/replay', { params: { path: { id } }, body })),
    rotateSecret: (id: string) =>
      this.call(this.http.POST('/api/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
  };

  readonly admin = {
    createProject: (body: Body<'adminCreateProject'>) =>
      this.call(this.http.POST('/admin/v1/projects', { body, headers: idempotency() })),
    listProjects: () => this.call(this.http.GET('/admin/v1/projects')),
    getProject: (id: string) =>
      this.call(this.http.GET('/admin/v1/projects/{id}', { params: { path: { id } } })),
    updateProject: (id: string, body: Body<'adminUpdateProject'>) =>
      this.call(this.http.PATCH('/admin/v1/projects/{id}', { params: { path: { id } }, body })),
    /**
     * Erases the project and all its data; cannot be undone (the id is sent again as `confirm`).
     * Answers with the erasure's record, which outlives the project.
     */
    eraseProject: (id: string) =>
      this.call(
        this.http.DELETE('/admin/v1/projects/{id}', { params: { path: { id }, query: { confirm: id } } }),
      ),
    /** A project erasure's record, by the id `eraseProject` answered. */
    getProjectErasure: (erasureId: string) =>
      this.call(this.http.GET('/admin/v1/erasures/{id}', { params: { path: { id: erasureId } } })),
    createKey: (id: string) =>
      this.call(
        this.http.POST('/admin/v1/projects/{id}/keys', { params: { path: { id } }, headers: idempotency() }),
      ),
    listKeys: (id: string) =>
      this.call(this.http.GET('/admin/v1/projects/{id}/keys', { params: { path: { id } } })),
    revokeKey: (id: string, keyId: string) =>
      this.call(
        this.http.DELETE('/admin/v1/projects/{id}/keys/{keyId}', { params: { path: { id, keyId } } }),
      ),
    revokeKeyByValue: (body: Body<'adminRevokeKeyByValue'>) =>
      this.call(this.http.POST('/admin/v1/keys/revoke', { body })),
    usage: (id: string) =>
      this.call(this.http.GET('/admin/v1/projects/{id}/usage', { params: { path: { id } } })),
    // --- data lifecycle (D150-D154) ---
    /** D151: what the stored retention policy, or `policy` when given, would delete now. */
    previewRetention: (id: string, policy?: RetentionPolicy) =>
      this.call(
        policy === undefined
          ? this.http.GET('/admin/v1/projects/{id}/retention/preview', { params: { path: { id } } })
          : this.http.POST('/admin/v1/projects/{id}/retention/preview', {
              params: { path: { id } },
              body: { retention: policy },
            }),
      ),
    // --- end data lifecycle ---
  };

  private async *feed(query: Query<'listEvents'>): AsyncGenerator<ParleyEvent> {
    let after = query.after ?? 0;
    for (;;) {
      const page = await this.events.page({ ...query, after });
      yield* page.items;
      if (page.items.length === 0 || page.next === after) return;
      after = page.next;
    }
  }

  private async *streamEvents({
    signal,
    after,
    onOpen,
    ...filter
  }: StreamOptions): AsyncGenerator<ParleyEvent> {
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort);
    let lastId = after === undefined ? undefined : String(after);
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) {
      for (const item of [value].flat()) if (item !== undefined) query.append(key, String(item));
    }
    let failures = 0;
    try {
      while (!stop.signal.aborted) {
        const headers = new Headers({ accept: 'text/event-stream' });
        if (this.options.apiKey) headers.set('authorization', `Bearer ${this.options.apiKey}`);
        if (lastId !== undefined) headers.set('last-event-id', lastId);
        let response: Response;
        try {
          response = await this.send(
            new Request(`${this.baseUrl}/api/v1/events/stream?${query}`, { headers, signal: stop.signal }),
          );
        } catch (error) {
          if (stop.signal.aborted) return;
          if (++failures > (this.options.maxRetries ?? 3)) throw error;
          await sleep(retryDelay(undefined, failures, this.options.maxRetryDelayMs ?? 30_000), stop.signal);
          continue;
        }
        if (!response.ok || !response.body) {
          const envelope = (await response.json().catch(() => undefined)) as ErrorEnvelope | undefined;
          throw new ParleyError(response.status, envelope?.error ? envelope : undefined);
        }
        failures = 0;
        onOpen?.();
        try {
          for await (const message of serverSentEvents(response.body)) {
            if (message.id !== undefined) lastId = message.id;
            if (message.data !== undefined) yield JSON.parse(message.data) as ParleyEvent;
          }
        } catch (error) {
          // A connection cut mid-stream is reopened below, from the last event received.
          if (stop.signal.aborted) return;
          if (++failures > (this.options.maxRetries ?? 3)) throw error;
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stop.abort();
    }
  }
}
