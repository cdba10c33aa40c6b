import https from 'node:https';
import fetch, { FetchError } from 'node-fetch';

// The DialogueDB Node client's transport, as D62 (docs/decisions.md) describes it:
// node-fetch 2 (the client's own HTTP library) over a keep-alive `https.Agent`, headers
// `authorization` in lower case and its User-Agent, no Content-Type, bodies JSON.stringify'd,
// URLs `endpoint + "/api/v1/" + path`, 3 retries on network errors, 429 and 5xx (POST too), every
// 2xx body parsed as JSON (an empty one is an error, retried), errors read from `error.*`.
// The client itself is not on the registry, so this reproduces it; nothing here knows Parley.

/** The version the client sends in its User-Agent (`dialogue-db-nodejs.<version>`). */
const CLIENT_VERSION = '1.4.0';
const RETRIES = 3;

/** What the client makes of an error answer: its fields, read as the client reads them. */
export class DialogueDbError extends Error {
  override name = 'DialogueDbError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly type: string | undefined,
    readonly requestId: string | undefined,
    readonly details: unknown,
  ) {
    super(message);
  }

  /** The client treats a 404 as "not found" only when the type says so. */
  get isNotFound(): boolean {
    return this.status === 404 && this.type === 'not_found';
  }
}

type Query = Record<string, string | number | undefined>;

export interface ClientOptions {
  endpoint: string;
  apiKey: string;
  /** The self-signed certificate the agent trusts. */
  ca: string;
  /** Waits between retries, in ms (the client's are about 1, 2 and 4 s). */
  retryDelaysMs?: number[];
}

export class DialogueDbTransport {
  readonly agent: https.Agent;
  /** Every request sent on the wire, retries included (method and path). */
  readonly sent: { method: string; path: string }[] = [];
  private readonly delays: number[];

  constructor(private readonly options: ClientOptions) {
    this.agent = new https.Agent({ keepAlive: true, ca: options.ca });
    this.delays = options.retryDelaysMs ?? [1000, 2000, 4000];
  }

  /** One call as the client makes it: resolves with the parsed 2xx body, rejects with DialogueDbError. */
  async request<T = unknown>(method: string, path: string, options: { body?: unknown; query?: Query } = {}) {
    const url = new URL(`${this.options.endpoint}/api/v1/${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, url, options.body);
      if (outcome.ok) return outcome.value as T;
      if (!outcome.retry || attempt >= RETRIES) throw outcome.error;
      await new Promise((resolve) => setTimeout(resolve, this.delays[attempt] ?? 0));
    }
  }

  /** The raw status and text of one attempt, for tests that look at the wire itself. */
  async raw(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const response = await this.send(method, new URL(`${this.options.endpoint}/api/v1/${path}`), body);
    return { status: response.status, text: await response.text() };
  }

  close(): void {
    this.agent.destroy();
  }

  private send(method: string, url: URL, body: unknown) {
    this.sent.push({ method, path: `${url.pathname}${url.search}` });
    return fetch(url.href, {
      method,
      agent: this.agent,
      // No Content-Type: node-fetch then labels a string body text/plain;charset=UTF-8.
      headers: {
        authorization: `Bearer ${this.options.apiKey}`,
        'User-Agent': `dialogue-db-nodejs.${CLIENT_VERSION}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  private async attempt(
    method: string,
    url: URL,
    body: unknown,
  ): Promise<{ ok: true; value: unknown } | { ok: false; retry: boolean; error: Error }> {
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await this.send(method, url, body);
    } catch (error) {
      if (error instanceof FetchError) return { ok: false, retry: true, error };
      throw error;
    }
    const text = await response.text();
    if (response.ok) {
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch {
        return {
          ok: false,
          retry: true,
          error: new Error(`${method} ${url.pathname}: 2xx body is not JSON: "${text}"`),
        };
      }
    }
    let envelope: { error?: Record<string, unknown> } = {};
    try {
      envelope = JSON.parse(text);
    } catch {
      // An error without a JSON body: the client keeps only the status.
    }
    const error = envelope.error ?? {};
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      ok: false,
      retry: response.status === 429 || response.status >= 500,
      error: new DialogueDbError(
        response.status,
        str(error.message) ?? `HTTP ${response.status}`,
        str(error.code),
        str(error.type),
        str(error.requestId),
        error.details,
      ),
    };
  }
}
