import { createParser } from 'eventsource-parser';

// The streams benchmark's holder (bench/streams.ts), a process of its own so that the load
// generator's event loop and the streams' parsing do not slow each other. It opens HOLD_STREAMS
// event streams (D66) of one project following `message.created`, and counts what each receives.
// On SIGTERM it waits until no event has come for HOLD_QUIET_MS (writes in hand when the load
// stopped still arrive; at most HOLD_SETTLE_MS in all), then prints the figures as one JSON line.

const api = process.env.HOLD_API!;
const auth = { authorization: `Bearer ${process.env.HOLD_KEY!}` };
const count = Number(process.env.HOLD_STREAMS ?? 1);
const settleMs = Number(process.env.HOLD_SETTLE_MS ?? 60_000);
const quietMs = Number(process.env.HOLD_QUIET_MS ?? 5_000);

interface Held {
  events: number;
  lastSeq: number;
  outOfOrder: number;
  closed: boolean;
}

const held: Held[] = [];
const stop = new AbortController();
let lastArrival = performance.now();

async function hold(): Promise<Held> {
  const figures: Held = { events: 0, lastSeq: 0, outOfOrder: 0, closed: false };
  held.push(figures);
  const response = await fetch(`${api}/events/stream?type=message.created`, {
    headers: { ...auth, accept: 'text/event-stream' },
    signal: stop.signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
  const parser = createParser({
    onEvent(message) {
      lastArrival = performance.now();
      if (message.id === undefined) return;
      const seq = Number(message.id);
      if (seq <= figures.lastSeq) figures.outOfOrder++;
      figures.lastSeq = seq;
      figures.events++;
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!)
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      figures.closed = true;
    } catch {
      // Ended by SIGTERM.
    }
  })();
  return figures;
}

// Opened a hundred at a time, so that the server is not asked for all of them at once.
for (let opened = 0; opened < count; opened += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - opened) }, hold));
}
process.stdout.write('ready\n');

process.once('SIGTERM', async () => {
  const start = performance.now();
  while (performance.now() - lastArrival < quietMs && performance.now() - start < settleMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  stop.abort();
  const events = held.map((figures) => figures.events);
  process.stdout.write(
    `${JSON.stringify({
      streams: held.length,
      minEvents: Math.min(...events),
      maxEvents: Math.max(...events),
      outOfOrder: held.reduce((sum, figures) => sum + figures.outOfOrder, 0),
      closedByServer: held.filter((figures) => figures.closed).length,
    })}\n`,
  );
  process.exit(0);
});
