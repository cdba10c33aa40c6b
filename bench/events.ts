import { type LoadResult, formatLoad, pick, runLoad } from './lib/load.js';
import { type BenchServer, startProbe, startServer } from './lib/processes.js';
import { type StoreEnv, seedStore } from './lib/seed.js';

// What the event feed (D63) costs a write, and how soon a committed event
// reaches an open stream (D66) under that load. POST /message (1 KiB, 16 dialogues) is run against
// Parley and against the same server with the outbox write removed (bench/parley-without-outbox.ts),
// in alternating rounds, each with the latency probe (bench/stream-probe.ts) following the stream
// and writing a message every 20 ms.

export interface EventBenchOptions {
  /** Parley's store and the baseline's own (PGlite allows one process per directory). */
  parleyStore: StoreEnv;
  baselineStore: StoreEnv;
  connections: number;
  durationSeconds: number;
  rounds: number;
}

interface ProbeFigures {
  probes: number;
  missing: number;
  eventsSeen: number;
  duplicates: number;
  fromAcknowledgedMs: number[];
  fromSentMs: number[];
}

export interface EventRow {
  withEvents: LoadResult[];
  withoutOutbox: LoadResult[];
  probe: ProbeFigures;
}

const content1KiB = 'Parley keeps every conversation exactly as it was sent. '.repeat(19).slice(0, 1024);

export async function benchEvents(options: EventBenchOptions): Promise<EventRow> {
  const servers: BenchServer[] = [];
  try {
    const start = async (entry: string, store: StoreEnv) => {
      // The probe's dialogue is the seed's otherwise unused long one, here empty.
      const seeded = await seedStore(store, 0);
      const server = await startServer(entry, {
        ...(store as Record<string, string>),
        EMBEDDINGS: 'none',
        RATE_LIMIT_MAX: '100000000',
      });
      servers.push(server);
      return { seeded, api: `${server.baseUrl}/api/v1` };
    };
    const parley = await start('src/server.ts', options.parleyStore);
    const baseline = await start('bench/parley-without-outbox.ts', options.baselineStore);

    const round = async ({ seeded, api }: typeof parley) => {
      const probe = await startProbe('bench/stream-probe.ts', {
        PROBE_API: api,
        PROBE_KEY: seeded.apiKey,
        PROBE_DIALOGUE: seeded.deepDialogue,
      });
      const load = await runLoad({
        url: `${api}/message`,
        method: 'POST',
        headers: { authorization: `Bearer ${seeded.apiKey}` },
        body: () =>
          JSON.stringify({ dialogueId: pick(seeded.writeDialogues), role: 'user', content: content1KiB }),
        connections: options.connections,
        durationSeconds: options.durationSeconds,
      });
      return { load, probe: (await probe.finish()) as ProbeFigures };
    };

    const row: EventRow = {
      withEvents: [],
      withoutOutbox: [],
      probe: { probes: 0, missing: 0, eventsSeen: 0, duplicates: 0, fromAcknowledgedMs: [], fromSentMs: [] },
    };
    for (let i = 0; i < options.rounds; i++) {
      // Alternating which goes first, so that a drift of the machine weighs on both alike.
      const order = i % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      for (const which of order) {
        if (which === 'without') {
          row.withoutOutbox.push((await round(baseline)).load);
          continue;
        }
        const { load, probe } = await round(parley);
        row.withEvents.push(load);
        row.probe.probes += probe.probes;
        row.probe.missing += probe.missing;
        row.probe.eventsSeen += probe.eventsSeen;
        row.probe.duplicates += probe.duplicates;
        row.probe.fromAcknowledgedMs.push(...probe.fromAcknowledgedMs);
        row.probe.fromSentMs.push(...probe.fromSentMs);
      }
    }
    return row;
  } finally {
    for (const server of servers) await server.stop();
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const meanRate = (results: LoadResult[]) =>
  results.reduce((sum, result) => sum + result.requestsPerSecond, 0) / results.length;

export function formatEventRow(title: string, row: EventRow): string {
  const { probe } = row;
  const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(1)} ms`;
  const lines = [
    `### ${title}`,
    '',
    '| round | POST /message, events on | outbox write removed | ratio |',
    '|---|---|---|---|',
    ...row.withEvents.map(
      (ours, i) =>
        `| ${i + 1} | ${formatLoad(ours)} | ${formatLoad(row.withoutOutbox[i]!)} | ${(ours.requestsPerSecond / row.withoutOutbox[i]!.requestsPerSecond).toFixed(2)} |`,
    ),
    '',
    `Cost of the feed, events on / outbox write removed (mean of ${row.withEvents.length} rounds): **${(meanRate(row.withEvents) / meanRate(row.withoutOutbox)).toFixed(2)}** (target at least 0.9)`,
    '',
    `Commit to stream under that load (${probe.probes} probe writes, ${probe.missing} not seen, ${probe.duplicates} events seen twice, ${probe.eventsSeen} events read):`,
    `from the write's 201: p50 ${ms(probe.fromAcknowledgedMs, 50)}, p95 ${ms(probe.fromAcknowledgedMs, 95)};`,
    `from the request leaving: p50 ${ms(probe.fromSentMs, 50)}, p95 ${ms(probe.fromSentMs, 95)} (the commit lies between; D66 asks for p95 within 1 s)`,
  ];
  return lines.join('\n');
}
