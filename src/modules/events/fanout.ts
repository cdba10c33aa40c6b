import { setTimeout as sleep } from 'node:timers/promises';
import type { EventHub } from './hub.js';
import type { EventRecord } from './records.js';

// D66: open streams share their reads. One reader (a "tail") per project and filter in the
// process reads the new events once when the hub wakes it and hands them in memory to every
// stream following them; a write then costs one read per project and filter, not one per open
// stream. A stream joins the tail once it has caught up with it, reading the feed on its own
// until then (a resume from an old Last-Event-ID), so one slow catch-up never holds back the
// others. A stream that falls behind by more than its backlog is let go: it is told it lags and
// its client resumes with Last-Event-ID, while the others go on.

/** Reads numbered events of the project after `after` that match the filter, oldest first. */
type FeedRead = (after: number, limit: number) => Promise<EventRecord[]>;

/** What a follower is handed: a page of new events, the end of the feed, or why it was dropped. */
interface Follower {
  /** The last seq handed to this follower (or read by it before it joined). */
  cursor: number;
  pending: EventRecord[];
  /** Events pending past this many: the follower lags and is dropped. */
  backlog: number;
  lagging: boolean;
  ended: boolean;
  failure?: unknown;
  /** Wakes the follower's consumer (set while it waits). */
  notify?: () => void;
  onLagging?: () => void;
}

interface Tail {
  /** The last seq this tail has read: a follower at or past it may join. */
  head: number;
  followers: Set<Follower>;
  stop: AbortController;
}

export interface FollowOptions {
  signal: AbortSignal;
  /** New events a stream may have waiting in memory before it is dropped as lagging. */
  backlog: number;
  /** Called once when the stream is dropped for lagging (its pages stop at once). */
  onLagging?: () => void;
}

/** Ends a follow whose consumer fell further behind than its backlog. */
export class StreamLagging extends Error {
  constructor() {
    super('the stream fell too far behind the feed');
  }
}

export interface StreamFanout {
  /**
   * The events after `after`, page by page, then each new one as it is numbered, until the
   * signal aborts or the hub closes. Throws StreamLagging when dropped for lagging.
   */
  follow(
    projectId: string,
    key: string,
    read: FeedRead,
    after: number,
    options: FollowOptions,
  ): AsyncGenerator<EventRecord[]>;
  /** Streams following a feed in this process. */
  readonly size: number;
}

export interface StreamFanoutDeps {
  hub: Pick<EventHub, 'subscribe'>;
  /** Events one read takes at most. */
  pageSize: number;
}

/**
 * D178: after a wake-up, a tail waits this long before it reads, so that the events numbered
 * meanwhile reach its followers as one page: each page costs every follower a write to its
 * socket. 0.05 ms per follower, at most 50 ms: a lone stream reads at once, a thousand gather
 * 50 ms of events (D66 allows a second).
 */
const gatherMs = (followers: number) => Math.min(50, followers * 0.05);

export function createStreamFanout({ hub, pageSize }: StreamFanoutDeps): StreamFanout {
  const tails = new Map<string, Tail>();
  let size = 0;

  const wake = (follower: Follower) => {
    const notify = follower.notify;
    follower.notify = undefined;
    notify?.();
  };

  const hand = (follower: Follower, page: EventRecord[]) => {
    if (follower.lagging) return;
    const fresh = page.filter((event) => event.seq > follower.cursor);
    if (fresh.length === 0) return;
    follower.cursor = fresh.at(-1)!.seq;
    if (follower.pending.length + fresh.length > follower.backlog) {
      follower.lagging = true;
      follower.pending = [];
      follower.onLagging?.();
    } else follower.pending.push(...fresh);
    wake(follower);
  };

  /** Reads for every follower of the tail until the last one leaves or the hub closes. */
  async function runTail(projectId: string, key: string, tail: Tail, read: FeedRead): Promise<void> {
    // Subscribed before the first read: a numbering between a read and the wait still wakes it.
    const subscription = hub.subscribe(projectId);
    let failure: unknown;
    try {
      while (tail.followers.size > 0) {
        const page = await read(tail.head, pageSize);
        if (page.length > 0) {
          tail.head = page.at(-1)!.seq;
          for (const follower of tail.followers) hand(follower, page);
        }
        if (page.length === pageSize) continue;
        if (!(await subscription.wait(tail.stop.signal))) break;
        const gather = gatherMs(tail.followers.size);
        if (gather >= 1) await sleep(gather, undefined, { signal: tail.stop.signal }).catch(() => {});
      }
    } catch (error) {
      failure = error;
    } finally {
      subscription.close();
      if (tails.get(key) === tail) tails.delete(key);
      for (const follower of tail.followers) {
        follower.ended = true;
        follower.failure = failure;
        wake(follower);
      }
    }
  }

  /**
   * Adds the follower to its feed's tail if it has caught up with it. With no tail yet, one is
   * started at the follower's cursor when `caughtUp` (its last read came back short).
   */
  function join(
    projectId: string,
    key: string,
    read: FeedRead,
    follower: Follower,
    caughtUp: boolean,
  ): boolean {
    let tail = tails.get(key);
    if (tail === undefined) {
      if (!caughtUp) return false;
      tail = { head: follower.cursor, followers: new Set(), stop: new AbortController() };
      tails.set(key, tail);
      tail.followers.add(follower);
      void runTail(projectId, key, tail, read);
      return true;
    }
    if (follower.cursor < tail.head) return false;
    tail.followers.add(follower);
    return true;
  }

  function leave(key: string, follower: Follower): void {
    const tail = tails.get(key);
    if (!tail?.followers.delete(follower) || tail.followers.size > 0) return;
    // The last one gone: the tail stops, and the next stream of this feed starts a new one.
    tails.delete(key);
    tail.stop.abort();
  }

  return {
    async *follow(projectId, key, read, after, { signal, backlog, onLagging }) {
      const follower: Follower = {
        cursor: after,
        pending: [],
        backlog,
        lagging: false,
        ended: false,
        onLagging,
      };
      size++;
      const onAbort = () => wake(follower);
      signal.addEventListener('abort', onAbort);
      let joined = false;
      try {
        // Catching up on its own: a page at a time, as its consumer takes them.
        let caughtUp = false;
        while (!signal.aborted) {
          joined = join(projectId, key, read, follower, caughtUp);
          if (joined) break;
          const page = await read(follower.cursor, pageSize);
          caughtUp = page.length < pageSize;
          if (page.length > 0) {
            follower.cursor = page.at(-1)!.seq;
            yield page;
          }
        }
        while (!signal.aborted) {
          if (follower.lagging) throw new StreamLagging();
          if (follower.pending.length > 0) {
            const page = follower.pending;
            follower.pending = [];
            yield page;
            continue;
          }
          if (follower.failure !== undefined) throw follower.failure;
          if (follower.ended) return;
          await new Promise<void>((resolve) => {
            follower.notify = resolve;
          });
        }
      } finally {
        signal.removeEventListener('abort', onAbort);
        size--;
        if (joined) leave(key, follower);
      }
    },
    get size() {
      return size;
    },
  };
}
