import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServerDatabase } from '../test/helpers/database.js';
import { benchCompaction, formatCompactionRows } from './compaction.js';
import { benchMessages, formatRows } from './messages.js';
import { benchSearch } from './search.js';

// `npm run bench`: every figure beside its baselines from the same run. The embedded store always;
// real Postgres when BENCH_DATABASE_URL names a server (fresh databases are created and dropped).

const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);
const deepMessages = Number(process.env.BENCH_DEEP_MESSAGES ?? 100_000);
const sections: string[] = [];

const postgresUrl = process.env.BENCH_DATABASE_URL;
if (postgresUrl) {
  const ours = await createServerDatabase(postgresUrl);
  const theirs = await createServerDatabase(postgresUrl);
  try {
    const rows = await benchMessages({
      parleyStore: { DATABASE_URL: ours.url },
      baselineStore: { DATABASE_URL: theirs.url },
      deepMessages,
      connections: 16,
      durationSeconds,
    });
    sections.push(formatRows('PostgreSQL 15 (16 connections)', rows));
  } finally {
    await ours.drop();
    await theirs.drop();
  }
  // Search latency at 10k and 100k messages, embedding throughput of the queue beside the raw embedder.
  sections.push(await benchSearch(postgresUrl));
}

const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
try {
  const rows = await benchMessages({
    parleyStore: { DATA_DIR: join(dir, 'parley') },
    baselineStore: { DATA_DIR: join(dir, 'baseline') },
    deepMessages,
    connections: 8,
    durationSeconds,
  });
  sections.push(formatRows('Embedded PGlite (8 connections)', rows));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

sections.push(
  formatCompactionRows(
    'Compaction, embedded PGlite, offline extractive summarizer (medians of 5 dialogues)',
    await benchCompaction(),
  ),
);

console.log(`\n${sections.join('\n\n')}\n`);
