// A DialogueDB account read over the DialogueDB client's own protocol (docs/api-decisions.md,
// "Moving in from DialogueDB"): `endpoint + "/api/v1/" + path`, `authorization: Bearer <key>`,
// lists paged with `next`, retries on network errors, 429 and 5xx as the client makes them.
// Only reads: the account is left as it was. Self-signed endpoints are trusted through
// NODE_EXTRA_CA_CERTS, as for the client.

const RETRY_DELAYS_MS = [1000, 2000, 4000];
const PAGE = 100;

class SourceError extends Error {
  override name = 'SourceError';
}

export type SourceRecord = Record<string, unknown>;

export interface DialogueDbSource {
  /** Every dialogue of the account (without messages), in the list's order. */
  dialogues(): AsyncGenerator<SourceRecord>;
  dialogue(id: string, namespace: string | null): Promise<SourceRecord>;
  /** A dialogue's messages, oldest first, every page. */
  messages(dialogueId: string, namespace: string | null): AsyncGenerator<SourceRecord>;
  memories(): AsyncGenerator<SourceRecord[]>;
}

export function dialogueDbSource(
  endpoint: string,
  key: string,
  { retryDelaysMs = RETRY_DELAYS_MS }: { retryDelaysMs?: number[] } = {},
): DialogueDbSource {
  const base = endpoint.replace(/\/+$/, '');

  async function get(path: string, query: Record<string, string | null | undefined>): Promise<unknown> {
    const url = new URL(`${base}/api/v1/${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, value);
    }
    for (let attempt = 0; ; attempt++) {
      let failure: string;
      try {
        const response = await fetch(url, {
          headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        });
        const text = await response.text();
        if (response.ok) return JSON.parse(text);
        const error = (JSON.parse(text || '{}') as { error?: { code?: string; message?: string } }).error;
        failure = `${response.status} ${error?.code ?? ''} ${error?.message ?? text}`.trim();
        if (response.status !== 429 && response.status < 500)
          throw new SourceError(`GET ${url.pathname}: ${failure}`);
      } catch (error) {
        if (error instanceof SourceError) throw error;
        failure = (error as Error).message;
      }
      if (attempt >= retryDelaysMs.length) {
        throw new SourceError(`GET ${url.pathname}: ${failure} (after ${attempt + 1} attempts)`);
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt]));
    }
  }

  async function* pages(path: string, query: Record<string, string | null>): AsyncGenerator<SourceRecord[]> {
    let next: string | undefined;
    do {
      const page = (await get(path, { ...query, limit: String(PAGE), order: 'asc', next })) as {
        items: SourceRecord[];
        next?: string | null;
      };
      yield page.items;
      next = page.next ?? undefined;
    } while (next);
  }

  return {
    async *dialogues() {
      for await (const items of pages('dialogue', {})) yield* items;
    },
    dialogue: async (id, namespace) =>
      (await get(`dialogue/${encodeURIComponent(id)}`, { namespace })) as SourceRecord,
    async *messages(dialogueId, namespace) {
      for await (const items of pages('messages', { dialogueId, namespace })) yield* items;
    },
    memories: () => pages('memory', {}),
  };
}
