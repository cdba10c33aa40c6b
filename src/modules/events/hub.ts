// D66: the in-memory fan-out of one process. Open streams wait here without holding a database
// connection; they are woken when their project's events were numbered, by this process's
// sequencer or, through the one LISTEN connection of the process, by another instance's.

interface Subscription {
  /**
   * Resolves at the next wake-up (at once when one came since the last call): true to read
   * again, false when the hub closed (the server is shutting down) or `signal` aborted.
   */
  wait(signal?: AbortSignal): Promise<boolean>;
  close(): void;
}

export interface EventHub {
  subscribe(projectId: string): Subscription;
  /**
   * Calls `listener` at every wake-up, with the project (undefined for a wake-up of all): the
   * webhook worker, which serves every project, learns here which one has new events. Returns
   * the function that stops the calls.
   */
  watch(listener: (projectId: string | undefined) => void): () => void;
  /** The project's events were numbered: its subscribers read again. */
  wake(projectId: string): void;
  /** Every subscriber reads again (the LISTEN connection was lost and may have missed some). */
  wakeAll(): void;
  /** Ends every subscription (server shutdown); later ones end at once. */
  close(): void;
  /** Open subscriptions. */
  readonly size: number;
}

interface Subscriber {
  woken: boolean;
  resolve?: (read: boolean) => void;
}

export function createEventHub(): EventHub {
  const byProject = new Map<string, Set<Subscriber>>();
  const watchers = new Set<(projectId: string | undefined) => void>();
  let closed = false;
  let size = 0;

  const wakeOne = (subscriber: Subscriber) => {
    subscriber.woken = true;
    subscriber.resolve?.(!closed);
    subscriber.resolve = undefined;
  };

  return {
    subscribe(projectId) {
      const subscriber: Subscriber = { woken: false };
      const set = byProject.get(projectId) ?? new Set<Subscriber>();
      byProject.set(projectId, set);
      set.add(subscriber);
      size++;
      let open = true;
      return {
        wait(signal) {
          if (closed || signal?.aborted) return Promise.resolve(false);
          if (subscriber.woken) {
            subscriber.woken = false;
            return Promise.resolve(true);
          }
          return new Promise<boolean>((resolve) => {
            const onAbort = () => {
              subscriber.resolve = undefined;
              resolve(false);
            };
            signal?.addEventListener('abort', onAbort, { once: true });
            subscriber.resolve = (read) => {
              signal?.removeEventListener('abort', onAbort);
              subscriber.woken = false;
              resolve(read);
            };
          });
        },
        close() {
          if (!open) return;
          open = false;
          size--;
          set.delete(subscriber);
          if (set.size === 0 && byProject.get(projectId) === set) byProject.delete(projectId);
        },
      };
    },
    watch(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    wake(projectId) {
      for (const watcher of watchers) watcher(projectId);
      for (const subscriber of byProject.get(projectId) ?? []) wakeOne(subscriber);
    },
    wakeAll() {
      for (const watcher of watchers) watcher(undefined);
      for (const set of byProject.values()) for (const subscriber of set) wakeOne(subscriber);
    },
    close() {
      closed = true;
      for (const set of byProject.values()) for (const subscriber of set) wakeOne(subscriber);
    },
    get size() {
      return size;
    },
  };
}
