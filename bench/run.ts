import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServerDatabase } from '../test/helpers/database.js';
import { benchBacklog } from './backlog.js';
import { benchCompaction, formatCompactionRows } from './compaction.js';
import { benchEvents, formatEventRow } from './events.js';
import { benchErasure, benchFork, formatLifecycle } from './lifecycle.js';
import { benchMessages, formatRows } from './messages.js';
import { benchQuota, formatQuotaRows } from './quota.js';
import { benchScale } from './scale.js';
import { benchSearch } from './search.js';
import { benchSoak } from './soak.js';
import { benchStreams, formatStreamRows } from './streams.js';

// `npm run bench`: every figure beside its baselines from the same run. The embedded store always;
// real Postgres when BENCH_DATABASE_URL names a server (fresh databases are created and dropped).
// `npm run bench -- events quota` runs only the sections named (messages, events, streams, quota,
// search, compaction, lifecycle: forks and namespace erasure, D160 and D164). `scale` (10^5 and 10^6
// messages, bench/scale.ts; an hour or more at 10^6), `soak` (the mixed workload held for five
// minutes, bench/soak.ts) and `backlog` (requests while 20,000 messages wait to be embedded,
// bench/backlog.ts) run only when named.

const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);
const deepMessages = Number(process.env.BENCH_DEEP_MESSAGES ?? 100_000);
const eventRounds = Number(process.env.BENCH_EVENT_ROUNDS ?? 2);
const openStreams = Number(process.env.BENCH_STREAMS ?? 1_000);
const named = process.argv.slice(2);
const runs = (section: string) => named.length === 0 || named.includes(section);
const sections: string[] = [];

/** Runs `bench` on two fresh stores of the kind given (Postgres databases or PGlite directories). */
async function onTwoStores<T>(
  postgresUrl: string | undefined,
  bench: (ours: { DATABASE_URL?: string; DATA_DIR?: string }, theirs: typeof ours) => Promise<T>,
): Promise<T> {
  if (postgresUrl) {
    const ours = await createServerDatabase(postgresUrl);
    const theirs = await createServerDatabase(postgresUrl);
    try {
      return await bench({ DATABASE_URL: ours.url }, { DATABASE_URL: theirs.url });
    } finally {
      await ours.drop();
      await theirs.drop();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  try {
    return await bench({ DATA_DIR: join(dir, 'parley') }, { DATA_DIR: join(dir, 'baseline') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `bench` on one fresh store of the kind given (a Postgres database or a PGlite directory). */
async function onOneStore<T>(
  postgresUrl: string | undefined,
  bench: (store: { DATABASE_URL?: string; DATA_DIR?: string }) => Promise<T>,
): Promise<T> {
  if (postgresUrl) {
    const database = await createServerDatabase(postgresUrl);
    try {
      return await bench({ DATABASE_URL: database.url });
    } finally {
      await database.drop();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  try {
    return await bench({ DATA_DIR: join(dir, 'parley') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const postgresUrl = process.env.BENCH_DATABASE_URL;
const stores = [
  ...(postgresUrl ? [{ url: postgresUrl, name: 'PostgreSQL 15', connections: 16 }] : []),
  { url: undefined, name: 'Embedded PGlite', connections: 8 },
];

for (const store of stores) {
  if (runs('messages')) {
    const rows = await onTwoStores(store.url, (parleyStore, baselineStore) =>
      benchMessages({
        parleyStore,
        baselineStore,
        deepMessages,
        connections: store.connections,
        durationSeconds,
      }),
    );
    sections.push(formatRows(`${store.name} (${store.connections} connections)`, rows));
  }
  if (runs('events')) {
    const row = await onTwoStores(store.url, (parleyStore, baselineStore) =>
      benchEvents({
        parleyStore,
        baselineStore,
        connections: store.connections,
        durationSeconds,
        rounds: eventRounds,
      }),
    );
    sections.push(formatEventRow(`Event feed, ${store.name} (${store.connections} connections)`, row));
  }
  if (runs('streams')) {
    const rows = await onOneStore(store.url, (parleyStore) =>
      benchStreams({ store: parleyStore, streams: openStreams, durationSeconds }),
    );
    sections.push(formatStreamRows(`Open event streams, ${store.name}`, rows));
  }
  if (runs('quota')) {
    const databaseUrl = store.url && (await createServerDatabase(store.url));
    try {
      const rows = await benchQuota(databaseUrl ? { databaseUrl: databaseUrl.url } : {});
      sections.push(formatQuotaRows(`Plan quota counting, ${store.name} (20 concurrent writers)`, rows));
    } finally {
      if (databaseUrl) await databaseUrl.drop();
    }
  }
  if (named.includes('soak'))
    sections.push(await onOneStore(store.url, (parleyStore) => benchSoak(parleyStore, store.name)));
  if (named.includes('backlog'))
    sections.push(await onOneStore(store.url, (parleyStore) => benchBacklog(parleyStore, store.name)));
  // D160, D164: a fork of 10,000 messages; a namespace erasure of 50,000 while other projects write.
  if (named.includes('lifecycle')) {
    const fresh = store.url ? await createServerDatabase(store.url) : undefined;
    try {
      const forks = await benchFork({ databaseUrl: fresh?.url });
      const erasure = await benchErasure({ databaseUrl: fresh?.url });
      sections.push(formatLifecycle(`Forks and namespace erasure, ${store.name}`, forks, erasure));
    } finally {
      await fresh?.drop();
    }
  }
  // Search latency at 10k and 100k messages, embedding throughput of the queue beside the raw embedder.
  if (store.url && runs('search')) sections.push(await benchSearch(store.url));
}

if (named.includes('scale')) sections.push(...(await benchScale(postgresUrl)));

if (runs('compaction')) {
  sections.push(
    formatCompactionRows(
      'Compaction, embedded PGlite, offline extractive summarizer (medians of 5 dialogues)',
      await benchCompaction(),
    ),
  );
}

console.log(`\n${sections.join('\n\n')}\n`);
