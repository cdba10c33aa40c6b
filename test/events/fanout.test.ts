import { describe, expect, it } from 'vitest';
import { RawJson } from '../../src/core/raw-json.js';
import { StreamLagging, createStreamFanout } from '../../src/modules/events/fanout.js';
import { createEventHub } from '../../src/modules/events/hub.js';
import type { EventRecord } from '../../src/modules/events/records.js';

// D66, the sharing of reads among open streams (src/modules/events/fanout.ts), on the real hub
// with the feed held in memory: how many reads a write costs, and what each stream is handed.

const PROJECT = 'prj_fanout';

/** An in-memory feed of numbered events, counting the reads made of it. */
function memoryFeed() {
  const events: EventRecord[] = [];
  let reads = 0;
  return {
    append(count: number) {
      for (let i = 0; i < count; i++) {
        const seq = events.length + 1;
        events.push({
          id: `evt_${seq}`,
          seq,
          type: 'memory.created',
          created: new Date(0).toISOString(),
          projectId: PROJECT,
          namespace: null,
          dialogueId: null,
          objectId: `mem_${seq}`,
          data: new RawJson('{}'),
        });
      }
    },
    read: async (after: number, limit: number) => {
      reads++;
      return events.filter((event) => event.seq > after).slice(0, limit);
    },
    get reads() {
      return reads;
    },
  };
}

/** Collects what one follow yields until it has `count` events, or ends. */
async function collect(pages: AsyncGenerator<EventRecord[]>, count: number): Promise<number[]> {
  const seen: number[] = [];
  for await (const page of pages) {
    seen.push(...page.map((event) => event.seq));
    if (seen.length >= count) break;
  }
  return seen;
}

describe('stream fan-out (D66)', () => {
  it('reads new events once per project and filter, whatever the number of streams', async () => {
    const hub = createEventHub();
    const fanout = createStreamFanout({ hub, pageSize: 100 });
    const feed = memoryFeed();
    const streams = Array.from({ length: 200 }, () =>
      collect(
        fanout.follow(PROJECT, 'all', feed.read, 0, { signal: new AbortController().signal, backlog: 1_000 }),
        50,
      ),
    );
    expect(fanout.size).toBe(200);
    // Each stream read once and found itself caught up; the first started the tail, the rest joined it.
    await Promise.resolve();
    const readsBefore = feed.reads;
    for (let write = 0; write < 10; write++) {
      feed.append(5);
      hub.wake(PROJECT);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const seen = await Promise.all(streams);
    const expected = Array.from({ length: 50 }, (_, i) => i + 1);
    for (const stream of seen) expect(stream).toEqual(expected);
    // One read per wake-up at most, not one per stream (200 streams would make 2,000).
    expect(feed.reads - readsBefore).toBeLessThanOrEqual(10);
    expect(fanout.size).toBe(0);
    hub.close();
  });

  it('gathers the events of wake-ups close together into one page when many streams follow (D178)', async () => {
    /** Follows the feed with `count` streams, wakes it 10 times in a row; the reads it took. */
    async function readsWith(count: number): Promise<number> {
      const hub = createEventHub();
      const fanout = createStreamFanout({ hub, pageSize: 100 });
      const feed = memoryFeed();
      const streams = Array.from({ length: count }, () =>
        collect(
          fanout.follow(PROJECT, 'all', feed.read, 0, {
            signal: new AbortController().signal,
            backlog: 1_000,
          }),
          20,
        ),
      );
      await Promise.resolve();
      const readsBefore = feed.reads;
      for (let write = 0; write < 10; write++) {
        feed.append(2);
        hub.wake(PROJECT);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const seen = await Promise.all(streams);
      for (const stream of seen) expect(stream).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      hub.close();
      return feed.reads - readsBefore;
    }
    // A lone stream is not made to wait: each wake-up is a read of its own.
    expect(await readsWith(1)).toBe(10);
    // A thousand wait a moment after the first wake-up: one page for all, where each page costs
    // every stream a write.
    expect(await readsWith(1_000)).toBeLessThanOrEqual(2);
  });

  it('lets a stream that starts behind catch up on its own, then join without loss or duplicates', async () => {
    const hub = createEventHub();
    const fanout = createStreamFanout({ hub, pageSize: 7 });
    const feed = memoryFeed();
    feed.append(30);
    const stop = new AbortController();
    const ahead = collect(
      fanout.follow(PROJECT, 'all', feed.read, 30, { signal: stop.signal, backlog: 100 }),
      10,
    );
    const behind = collect(
      fanout.follow(PROJECT, 'all', feed.read, 3, { signal: stop.signal, backlog: 100 }),
      37,
    );
    for (let write = 0; write < 5; write++) {
      feed.append(2);
      hub.wake(PROJECT);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await ahead).toEqual(Array.from({ length: 10 }, (_, i) => 31 + i));
    expect(await behind).toEqual(Array.from({ length: 37 }, (_, i) => 4 + i));
    hub.close();
  });

  it('drops a stream with more events waiting than its backlog, and only that one', async () => {
    const hub = createEventHub();
    const fanout = createStreamFanout({ hub, pageSize: 100 });
    const feed = memoryFeed();
    const stop = new AbortController();
    let told = 0;
    const slow = fanout.follow(PROJECT, 'all', feed.read, 0, {
      signal: stop.signal,
      backlog: 5,
      onLagging: () => told++,
    });
    const fast = collect(fanout.follow(PROJECT, 'all', feed.read, 0, { signal: stop.signal, backlog: 5 }), 8);
    // The slow stream takes its first page, then does not come back for more while events arrive.
    const first = slow.next();
    feed.append(2);
    hub.wake(PROJECT);
    expect(((await first).value as EventRecord[]).map((event) => event.seq)).toEqual([1, 2]);
    for (let write = 0; write < 3; write++) {
      feed.append(2);
      hub.wake(PROJECT);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(told).toBe(1);
    await expect(slow.next()).rejects.toBeInstanceOf(StreamLagging);
    expect(await fast).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    hub.close();
  });

  it('ends every stream when the hub closes', async () => {
    const hub = createEventHub();
    const fanout = createStreamFanout({ hub, pageSize: 100 });
    const feed = memoryFeed();
    const stop = new AbortController();
    const streams = [0, 1, 2].map(() =>
      collect(fanout.follow(PROJECT, 'all', feed.read, 0, { signal: stop.signal, backlog: 10 }), 1),
    );
    hub.close();
    expect(await Promise.all(streams)).toEqual([[], [], []]);
    expect(fanout.size).toBe(0);
  });
});
