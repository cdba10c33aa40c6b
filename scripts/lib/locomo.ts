import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.js';
import type { Embedder } from '../../src/embedders/embedder.js';
import { ensureVectorIndexes } from '../../src/modules/embeddings/vector-sql.js';
import { drainEmbeddingQueue } from '../../src/modules/embeddings/worker.js';
import { dialogueScope } from '../../src/modules/dialogues/scope.js';
import { searchBody } from '../../src/modules/search/schemas.js';
import type { Fusion, Strategy } from '../../src/modules/search/scoring.js';
import { createSearchService } from '../../src/modules/search/service.js';
import { keyOnlyLoaders } from '../../bench/lib/key-loaders.js';

// Search quality on LoCoMo (Maharana et al., ACL 2024: very long conversations, each question
// naming the turns that answer it). The data is not ours to ship: the caller names the file.
// Each conversation is loaded through the app's own routes, in-process, on the embedded database:
// one namespace per conversation, one dialogue per session (created at the session's date), one
// message per turn whose id is the turn's dia_id. Questions of categories 1-4 are asked within
// their conversation's namespace (object message, limit 10). Beside Parley's ranking, a plain BM25
// (k1 1.2, b 0.75) over the same turns, with Postgres' English stemmer and stop words, per
// namespace, over each turn's text alone, is computed in the same run.

const ADMIN_TOKEN = 'eval-admin-token-0123456789';
const CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface Sample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: { question: string; evidence: string[]; category: number }[];
}

interface LocomoQuestion {
  namespace: string;
  question: string;
  category: string;
  evidence: Set<string>;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1:56 pm on 8 May, 2023" as an instant (read as UTC). */
function sessionDate(text: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable session date: ${text}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) throw new Error(`unreadable month: ${text}`);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

/** Evidence as written ("D8:6; D9:17", "D:11:26", "D30:05") split and normalised to dia_ids. */
function evidenceIds(entries: string[]): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    for (const m of entry.matchAll(/D:?(\d+):0*(\d+)/g)) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return ids;
}

interface Loaded {
  turns: number;
  sessions: number;
  questions: LocomoQuestion[];
  dropped: number;
}

async function loadSamples(
  app: FastifyInstance,
  auth: Record<string, string>,
  samples: Sample[],
): Promise<Loaded> {
  let turns = 0;
  let sessions = 0;
  let dropped = 0;
  const questions: LocomoQuestion[] = [];
  for (const sample of samples) {
    const namespace = sample.sample_id;
    const { conversation } = sample;
    const known = new Set<string>();
    const roleOf = (speaker: string) => (speaker === conversation.speaker_a ? 'user' : 'assistant');
    for (let n = 1; Array.isArray(conversation[`session_${n}`]); n++) {
      const session = conversation[`session_${n}`] as Turn[];
      const start = sessionDate(conversation[`session_${n}_date_time`] as string);
      const dialogueId = `${namespace}-s${n}`;
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/dialogue',
        headers: auth,
        payload: { id: dialogueId, namespace, created: start.toISOString() },
      });
      if (created.statusCode !== 201) throw new Error(`dialogue ${dialogueId}: ${created.body}`);
      sessions++;
      // The turns of a session a second apart, in order, 100 per request.
      for (let i = 0; i < session.length; i += 100) {
        const batch = session.slice(i, i + 100).map((turn, j) => ({
          id: turn.dia_id,
          role: roleOf(turn.speaker),
          name: turn.speaker.replace(/[^A-Za-z0-9_-]/g, '_'),
          content: turn.text,
          created: new Date(start.getTime() + (i + j) * 1000).toISOString(),
        }));
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/messages',
          headers: auth,
          payload: { dialogueId, namespace, messages: batch },
        });
        if (response.statusCode !== 201) throw new Error(`messages of ${dialogueId}: ${response.body}`);
        for (const turn of session.slice(i, i + 100)) known.add(turn.dia_id);
        turns += batch.length;
      }
    }
    for (const qa of sample.qa) {
      const category = CATEGORIES[qa.category];
      if (!category) continue;
      const evidence = new Set(evidenceIds(qa.evidence).filter((id) => known.has(id)));
      if (evidence.size === 0) {
        dropped++;
        continue;
      }
      questions.push({ namespace, question: qa.question, category, evidence });
    }
  }
  return { turns, sessions, questions, dropped };
}

/**
 * BM25 over the stored turns of each namespace: lexemes and counts from Postgres' own tsvector of
 * each turn's text alone (its string content), not of what Parley searches (which adds the
 * speaker's name, D179).
 */
async function bm25Baseline(db: DatabaseHandle['db'], projectId: string) {
  const k1 = 1.2;
  const b = 0.75;
  const rows = rowsOf<{ namespace: string; id: string; lexeme: string; tf: number }>(
    await db.execute(sql`SELECT m.namespace, m.id, v.lexeme, cardinality(v.positions) AS tf
      FROM messages m, unnest(to_tsvector('english', m.content::jsonb #>> '{}')) AS v
      WHERE m.project_id = ${projectId}`),
  );
  const docs = new Map<string, Map<string, Map<string, number>>>();
  for (const row of rows) {
    const ns = docs.get(row.namespace) ?? new Map<string, Map<string, number>>();
    docs.set(row.namespace, ns);
    const doc = ns.get(row.id) ?? new Map<string, number>();
    ns.set(row.id, doc);
    // A tsvector keeps at most 256 positions of a lexeme; a chat turn never gets there.
    doc.set(row.lexeme, Math.max(1, Number(row.tf)));
  }
  const index = new Map<string, { df: Map<string, number>; avgdl: number; lengths: Map<string, number> }>();
  for (const [namespace, ns] of docs) {
    const df = new Map<string, number>();
    const lengths = new Map<string, number>();
    let total = 0;
    for (const [id, doc] of ns) {
      let length = 0;
      for (const [lexeme, tf] of doc) {
        df.set(lexeme, (df.get(lexeme) ?? 0) + 1);
        length += tf;
      }
      lengths.set(id, length);
      total += length;
    }
    index.set(namespace, { df, avgdl: total / ns.size, lengths });
  }
  return async (namespace: string, question: string, limit: number): Promise<string[]> => {
    const lexemes = rowsOf<{ lexemes: string[] }>(
      await db.execute(sql`SELECT tsvector_to_array(to_tsvector('english', ${question})) AS lexemes`),
    )[0]!.lexemes;
    const ns = docs.get(namespace)!;
    const { df, avgdl, lengths } = index.get(namespace)!;
    const n = ns.size;
    const scores: [string, number][] = [];
    for (const [id, doc] of ns) {
      let score = 0;
      for (const lexeme of lexemes) {
        const tf = doc.get(lexeme);
        if (!tf) continue;
        const d = df.get(lexeme)!;
        const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths.get(id)!) / avgdl));
      }
      if (score > 0) scores.push([id, score]);
    }
    return scores
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, limit)
      .map(([id]) => id);
  };
}

interface Metrics {
  n: number;
  recall5: number;
  recall10: number;
  hit5: number;
}

function score(questions: LocomoQuestion[], rankings: string[][]): Map<string, Metrics> {
  const sums = new Map<string, Metrics>();
  for (const [i, q] of questions.entries()) {
    const list = rankings[i]!;
    const found = (k: number) => list.slice(0, k).filter((id) => q.evidence.has(id)).length;
    for (const cls of [q.category, 'all']) {
      const t = sums.get(cls) ?? { n: 0, recall5: 0, recall10: 0, hit5: 0 };
      t.n++;
      t.recall5 += found(5) / q.evidence.size;
      t.recall10 += found(10) / q.evidence.size;
      t.hit5 += found(5) > 0 ? 1 : 0;
      sums.set(cls, t);
    }
  }
  for (const t of sums.values()) {
    t.recall5 /= t.n;
    t.recall10 /= t.n;
    t.hit5 /= t.n;
  }
  return sums;
}

const fmt = (x: number) => x.toFixed(3);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export interface LocomoOptions {
  path: string;
  embedder: Embedder;
  database: DatabaseHandle;
  /** Other fusions to measure beside the default (through the search service). */
  variants?: { name: string; fusion?: Fusion; strategy?: Strategy }[];
}

/** Runs the evaluation; false when the file is absent (the caller skips). */
export async function evaluateLocomo({ path, embedder, database, variants = [] }: LocomoOptions) {
  if (!existsSync(path)) return false;
  const samples = JSON.parse(readFileSync(path, 'utf8')) as Sample[];
  const config = configFrom({
    ADMIN_TOKEN,
    EMBEDDINGS: 'local',
    EMBEDDING_WORKER: 'false',
    WEBHOOK_WORKER: 'false',
    RATE_LIMIT_MAX: '1000000',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  const app = await buildApp({ config, database, embedder });
  await app.ready();
  try {
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/projects',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { name: 'locomo' },
    });
    if (created.statusCode !== 201) throw new Error(`project: ${created.body}`);
    const { project, apiKey } = created.json() as { project: { id: string }; apiKey: string };
    const auth = { authorization: `Bearer ${apiKey}` };
    const loaded = await loadSamples(app, auth, samples);
    await ensureVectorIndexes(database, embedder);
    const started = performance.now();
    await drainEmbeddingQueue({ db: database.db, embedder, batchSize: 64 });
    console.log(
      `LoCoMo: ${samples.length} conversations, ${loaded.turns} turns in ${loaded.sessions} sessions, ` +
        `${loaded.questions.length} questions of categories 1-4 (${loaded.dropped} without a turn named), ` +
        `embedded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const { questions } = loaded;
    const latencies: number[] = [];
    const parley: string[][] = [];
    for (const q of questions) {
      const t0 = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/search',
        headers: auth,
        payload: { query: q.question, namespace: q.namespace, object: 'message', limit: 10 },
      });
      latencies.push(performance.now() - t0);
      if (response.statusCode !== 200) throw new Error(`search: ${response.body}`);
      parley.push((response.json() as { results: { item: { id: string } }[] }).results.map((r) => r.item.id));
    }
    const bm25 = await bm25Baseline(database.db, project.id);
    const baseline: string[][] = [];
    for (const q of questions) baseline.push(await bm25(q.namespace, q.question, 10));

    const columns: [string, Map<string, Metrics>][] = [
      ['Parley', score(questions, parley)],
      ['BM25', score(questions, baseline)],
    ];
    const service = (fusion?: Fusion) =>
      createSearchService({
        readDb: database.db,
        embedder,
        storeKind: database.kind,
        fusion,
        loaders: keyOnlyLoaders,
        dialogueScope,
      });
    for (const variant of variants) {
      const search = service(variant.fusion);
      const ranks: string[][] = [];
      for (const q of questions) {
        const { results } = await search.search(
          { projectId: project.id, settings: {} },
          searchBody.parse({ query: q.question, namespace: q.namespace, object: 'message', limit: 10 }),
          variant.strategy,
        );
        ranks.push(results.map((r) => r.item.id as string));
      }
      columns.push([variant.name, score(questions, ranks)]);
    }

    const classes = [...Object.values(CATEGORIES), 'all'];
    console.log(
      `\n${'recall@5 / recall@10 / hit@5'.padEnd(30)}${columns.map(([name]) => name.padEnd(24)).join('')}ratio r@5`,
    );
    let ok = true;
    for (const cls of classes) {
      const cells = columns.map(([, m]) => m.get(cls)!);
      const ratio = cells[0]!.recall5 / cells[1]!.recall5;
      if (ratio < 1) ok = false;
      console.log(
        `${`${cls} (${cells[0]!.n})`.padEnd(30)}` +
          cells.map((c) => `${fmt(c.recall5)} / ${fmt(c.recall10)} / ${fmt(c.hit5)}`.padEnd(24)).join('') +
          ratio.toFixed(2),
      );
    }
    const all = columns.map(([, m]) => m.get('all')!.recall5);
    const ratio = all[0]! / all[1]!;
    console.log(
      `\nParley recall@5 ${fmt(all[0]!)} = ${ratio.toFixed(2)}x BM25's ${fmt(all[1]!)} (target >= 1.10x, ` +
        `no category below BM25); search p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(latencies, 95).toFixed(1)} ms (through the app, ${latencies.length} searches)`,
    );
    const distinct = new Set(
      parley.flatMap((list, i) => list.slice(0, 5).map((id) => `${questions[i]!.namespace}/${id}`)),
    );
    const distinctBm25 = new Set(
      baseline.flatMap((list, i) => list.slice(0, 5).map((id) => `${questions[i]!.namespace}/${id}`)),
    );
    console.log(`distinct turns in the top 5 lists: Parley ${distinct.size}, BM25 ${distinctBm25.size}`);
    return ok && ratio >= 1.1;
  } finally {
    await app.close();
  }
}
