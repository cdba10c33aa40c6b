import { type LoadResult, formatLoad, pick, runLoad } from './lib/load.js';
import { startProbe, startServer } from './lib/processes.js';
import { type StoreEnv, seedStore } from './lib/seed.js';
import { metric, rssMb } from './lib/server-metrics.js';

// What open event streams (D66) cost the writers: POST /message (8 connections, 16 dialogues,
// EMBEDDINGS=none) with one stream open, then with many (1,000 by default) on the same server,
// each following `message.created` of the project, held by bench/stream-holder.ts in a process of
// its own. Streams share their reads (src/modules/events/fanout.ts), so the rate with many should
// stay near the rate with one; every stream must get every event, and the server's resident
// memory must not grow much with the streams.

export interface StreamBenchOptions {
  store: StoreEnv;
  streams: number;
  durationSeconds: number;
}

interface HolderFigures {
  streams: number;
  minEvents: number;
  maxEvents: number;
  outOfOrder: number;
  closedByServer: number;
}

interface StreamRound {
  streams: number;
  load: LoadResult;
  written: number;
  holder: HolderFigures;
  rssBeforeMb: number;
  rssAfterMb: number;
}

export type StreamRow = StreamRound[];

const content1KiB = 'Parley keeps every conversation exactly as it was sent. '.repeat(19).slice(0, 1024);

const createdEvents = (baseUrl: string) =>
  metric(baseUrl, 'parley_events_written_total', '{type="message.created"}');

export async function benchStreams(options: StreamBenchOptions): Promise<StreamRow> {
  const seeded = await seedStore(options.store, 0);
  const server = await startServer('src/server.ts', {
    ...(options.store as Record<string, string>),
    EMBEDDINGS: 'none',
    RATE_LIMIT_MAX: '100000000',
    // A thousand streams opening on a shared machine would otherwise meet load shedding (503).
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  const api = `${server.baseUrl}/api/v1`;
  const rounds: StreamRound[] = [];
  try {
    for (const streams of [1, options.streams]) {
      const rssBeforeMb = await rssMb(server.baseUrl);
      const holder = await startProbe('bench/stream-holder.ts', {
        HOLD_API: api,
        HOLD_KEY: seeded.apiKey,
        HOLD_STREAMS: String(streams),
      });
      const before = await createdEvents(server.baseUrl);
      const load = await runLoad({
        url: `${api}/message`,
        method: 'POST',
        headers: { authorization: `Bearer ${seeded.apiKey}` },
        body: () =>
          JSON.stringify({ dialogueId: pick(seeded.writeDialogues), role: 'user', content: content1KiB }),
        connections: 8,
        durationSeconds: options.durationSeconds,
      });
      const rssAfterMb = await rssMb(server.baseUrl);
      // Once the holder saw the stream go quiet: writes still in hand when the load stopped count too.
      const figures = (await holder.finish()) as HolderFigures;
      const written = (await createdEvents(server.baseUrl)) - before;
      rounds.push({ streams, load, written, holder: figures, rssBeforeMb, rssAfterMb });
    }
    return rounds;
  } finally {
    await server.stop();
  }
}

export function formatStreamRows(title: string, rows: StreamRow): string {
  const one = rows[0]!;
  const many = rows.at(-1)!;
  const lines = [
    `### ${title}`,
    '',
    '| streams open | POST /message (8 connections) | events written | every stream got (min-max) | out of order | server RSS before -> after |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.streams} | ${formatLoad(row.load)} | ${row.written} | ${row.holder.minEvents}-${row.holder.maxEvents} | ${row.holder.outOfOrder} | ${row.rssBeforeMb.toFixed(0)} -> ${row.rssAfterMb.toFixed(0)} MB |`,
    ),
    '',
    `Writes with ${many.streams} streams / with 1 stream: **${(many.load.requestsPerSecond / one.load.requestsPerSecond).toFixed(2)}** (target at least 0.8);`,
    `every stream got every event: ${rows.every((row) => row.holder.minEvents === row.written && row.holder.maxEvents === row.written) ? 'yes' : 'NO'};`,
    `RSS growth with ${many.streams} streams: ${(many.rssAfterMb - many.rssBeforeMb).toFixed(0)} MB (target at most 150 MB)`,
  ];
  return lines.join('\n');
}
