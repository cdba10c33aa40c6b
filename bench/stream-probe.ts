import { createParser } from 'eventsource-parser';

// The events benchmark's latency probe (bench/events.ts), a process of its own so that the load
// generator's busy event loop does not delay what it reads. It follows the event stream (D66) of
// its dialogue and, every PROBE_INTERVAL_MS, appends a message to its own dialogue; for each it notes when
// the request left, when its 201 came back (the commit lies between the two) and when its
// `message.created` came through the stream. On SIGTERM it prints the figures as one JSON line.

const api = process.env.PROBE_API!;
const auth = { authorization: `Bearer ${process.env.PROBE_KEY!}` };
const dialogueId = process.env.PROBE_DIALOGUE!;
const intervalMs = Number(process.env.PROBE_INTERVAL_MS ?? 20);

interface Probe {
  sent: number;
  acknowledged?: number;
  streamed?: number;
}

const probes = new Map<string, Probe>();
/** Arrivals of messages whose 201 had not been read yet when their event came. */
const early = new Map<string, number>();
let eventsSeen = 0;
let duplicates = 0;
let lastSeq = 0;

const stream = new AbortController();
// Its own dialogue's events only, as a chat window follows one dialogue: the server reads the
// feed for it under the load, the probe parses only what it measures.
const response = await fetch(`${api}/events/stream?dialogueId=${dialogueId}`, {
  headers: { ...auth, accept: 'text/event-stream' },
  signal: stream.signal,
});
if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
const parser = createParser({
  onEvent(message) {
    const now = performance.now();
    eventsSeen++;
    const seq = Number(message.id);
    if (seq <= lastSeq) duplicates++;
    lastSeq = Math.max(lastSeq, seq);
    if (message.event !== 'message.created') return;
    const event = JSON.parse(message.data) as { dialogueId: string; objectId: string };
    if (event.dialogueId !== dialogueId) return;
    const probe = probes.get(event.objectId);
    if (probe) probe.streamed = now;
    else early.set(event.objectId, now);
  },
});
const reading = (async () => {
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body!)
      parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  } catch {
    // Ended by SIGTERM.
  }
})();

let running = true;
const writing = (async () => {
  while (running) {
    const sent = performance.now();
    const written = await fetch(`${api}/message`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ dialogueId, role: 'user', content: 'probe' }),
    });
    const acknowledged = performance.now();
    if (written.status !== 201) throw new Error(`probe write: ${written.status}`);
    const { id } = (await written.json()) as { id: string };
    probes.set(id, { sent, acknowledged, streamed: early.get(id) });
    early.delete(id);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
})();

process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  running = false;
  await writing;
  // The last probes' events are given a moment to come through before the count of missing ones.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  stream.abort();
  await reading;
  const list = [...probes.values()];
  const streamed = list.filter((probe) => probe.streamed !== undefined);
  process.stdout.write(
    `${JSON.stringify({
      probes: list.length,
      missing: list.length - streamed.length,
      eventsSeen,
      duplicates,
      fromAcknowledgedMs: streamed.map((probe) => probe.streamed! - probe.acknowledged!),
      fromSentMs: streamed.map((probe) => probe.streamed! - probe.sent),
    })}\n`,
  );
  process.exit(0);
});
