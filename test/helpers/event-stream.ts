// D66: a client of GET /api/v1/events/stream over real HTTP (fetch), reading the server-sent
// events as they arrive, for tests of in-process apps and of server processes alike.

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** An open stream: its messages as they arrive. */
export interface OpenStream {
  status: number;
  headers: Headers;
  /** The next `count` events (comments skipped), or fails after `timeoutMs`. */
  events(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  /**
   * The next events (comments skipped) up to and including the first for which `last` is true
   * (`index`: its place among them), or fails after `timeoutMs` naming `what` and what came.
   */
  eventsUntil(
    last: (message: SseMessage, index: number) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<SseMessage[]>;
  /** The next comment line. */
  comment(timeoutMs?: number): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens the stream with `auth` (the Authorization header), `query` and further `headers`. */
export async function openEventStream(
  baseUrl: string,
  auth: { authorization: string },
  query = '',
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/events/stream${query}`, {
    headers: { ...auth, accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const queue: SseMessage[] = [];
  let finished = false;
  let notify: (() => void) | undefined;
  const pump = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) message.comment = line.slice(1).trim();
            else {
              const at = line.indexOf(':');
              const field = line.slice(0, at) as 'id' | 'event' | 'data';
              const value = line.slice(at + 1).replace(/^ /, '');
              message[field] =
                field === 'data' && message.data !== undefined ? `${message.data}\n${value}` : value;
            }
          }
          queue.push(message);
          notify?.();
        }
      }
    } catch {
      // Aborted by the test.
    }
    finished = true;
    notify?.();
  })();
  /** Waits for `ready`, checked again at each message the stream delivers, up to `timeoutMs`. */
  const whenReady = async (ready: () => boolean, timeoutMs: number, failure: () => string) => {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (Date.now() >= deadline) throw new Error(failure());
      await new Promise<void>((resolve) => {
        // Woken by the next message or the end of the stream; the timer only ends the wait.
        const bound = setTimeout(resolve, deadline - Date.now());
        notify = () => {
          clearTimeout(bound);
          resolve();
        };
      });
    }
  };
  /** Moves the events (not comments) of the queue to `taken` while `more()` says so. */
  const take = (taken: SseMessage[], more: () => boolean) => {
    while (queue.length > 0 && more()) {
      const message = queue.shift()!;
      if (message.data !== undefined) taken.push(message);
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    async events(count, timeoutMs = 5_000) {
      const taken: SseMessage[] = [];
      await whenReady(
        () => {
          take(taken, () => taken.length < count);
          return taken.length === count || finished;
        },
        timeoutMs,
        () => `timed out waiting for ${count} events`,
      );
      return taken;
    },
    async eventsUntil(last, timeoutMs, what) {
      const taken: SseMessage[] = [];
      const done = () => taken.length > 0 && last(taken.at(-1)!, taken.length - 1);
      await whenReady(
        () => {
          take(taken, () => !done());
          if (finished && !done()) throw new Error(`${what}: the stream ended first`);
          return done();
        },
        timeoutMs,
        () =>
          `${what}: not received within ${timeoutMs} ms; received ${taken.length} events: ` +
          (taken.map((message) => `${message.id} ${message.event}`).join(', ') || 'none'),
      );
      return taken;
    },
    async comment(timeoutMs = 5_000) {
      let found: string | undefined;
      await whenReady(
        () => {
          const index = queue.findIndex((message) => message.comment !== undefined);
          if (index !== -1) found = queue.splice(index, 1)[0]!.comment;
          return found !== undefined;
        },
        timeoutMs,
        () => 'timed out waiting for a comment',
      );
      return found!;
    },
    async ended(timeoutMs = 5_000) {
      await whenReady(
        () => finished,
        timeoutMs,
        () => 'timed out waiting for the end of the stream',
      );
      await pump;
    },
    close: () => abort.abort(),
  };
}
