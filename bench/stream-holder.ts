import { request } from 'node:http';

// The streams benchmark's holder (bench/streams.ts), a process of its own so that the load
// generator's event loop and the streams' reading do not slow each other. It opens HOLD_STREAMS
// event streams (D66) of one project following `message.created`, and counts what each receives.
// On SIGTERM it waits until no event has come for HOLD_QUIET_MS (writes in hand when the load
// stopped still arrive; at most HOLD_SETTLE_MS in all), then prints the figures as one JSON line.
// It shares the machine with the server, so it reads as little as it can: the bytes are scanned
// for the `id:` lines (one per event, the only lines that begin so), not parsed as events.

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

const ID_LINE = Buffer.from('\nid: ');
const NEWLINE = 0x0a;

/** Where the next line beginning `id: ` starts, after `from`; -1 when none does. */
function nextIdLine(bytes: Buffer, from: number): number {
  const found = bytes.indexOf(ID_LINE, from);
  return found < 0 ? -1 : found + 1;
}

/** Counts the `id:` lines among the complete lines of `bytes` (`end` past the last one). */
function countIds(bytes: Buffer, end: number, figures: Held): void {
  // `bytes` starts at a line's start: the first line may be an id line too.
  let at = bytes.toString('latin1', 0, 4) === 'id: ' ? 0 : nextIdLine(bytes, 0);
  while (at >= 0 && at < end) {
    let seq = 0;
    let digit = at + 4;
    for (; bytes[digit] !== NEWLINE; digit++) seq = seq * 10 + bytes[digit]! - 48;
    if (seq <= figures.lastSeq) figures.outOfOrder++;
    figures.lastSeq = seq;
    figures.events++;
    at = nextIdLine(bytes, digit);
  }
}

function hold(): Promise<Held> {
  const figures: Held = { events: 0, lastSeq: 0, outOfOrder: 0, closed: false };
  held.push(figures);
  return new Promise((resolve, reject) => {
    const opened = request(
      `${api}/events/stream?type=message.created`,
      { headers: { ...auth, accept: 'text/event-stream' }, signal: stop.signal },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`stream: ${response.statusCode}`));
        // What came after the last complete line, kept until its line ends.
        let partial = Buffer.alloc(0);
        response.on('data', (chunk: Buffer) => {
          lastArrival = performance.now();
          const bytes = partial.length > 0 ? Buffer.concat([partial, chunk]) : chunk;
          const end = bytes.lastIndexOf(NEWLINE) + 1;
          countIds(bytes, end, figures);
          partial = Buffer.from(bytes.subarray(end));
        });
        response.on('end', () => {
          figures.closed = true;
        });
        response.on('error', () => {
          // Ended by SIGTERM.
        });
        resolve(figures);
      },
    );
    opened.on('error', (error) => {
      if (!stop.signal.aborted) reject(error);
    });
    opened.end();
  });
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
