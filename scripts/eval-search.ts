import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { type EvalQuery as Query, loadEvalMessages, loadEvalQueries } from './lib/search-fixtures.js';
import { type Executor, openDatabase, rowsOf } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { dialogues, messages, projects } from '../src/db/schema.js';
import { createLocalEmbedder } from '../src/embedders/local.js';
import { enqueueEmbedding } from '../src/modules/embeddings/repository.js';
import { ensureVectorIndexes } from '../src/modules/embeddings/vector-sql.js';
import { drainEmbeddingQueue } from '../src/modules/embeddings/worker.js';
import { dialogueScope } from '../src/modules/dialogues/scope.js';
import { searchBody } from '../src/modules/search/schemas.js';
import { countTexts } from '../src/modules/search/terms-sql.js';
import { createSearchService } from '../src/modules/search/service.js';
import { keyOnlyLoaders } from '../bench/lib/key-loaders.js';
import { cachedEmbedder } from './lib/cached-embedder.js';
import { evaluateLocomo } from './lib/locomo.js';
import { DEFAULT_FUSION, type Fusion, type Strategy } from '../src/modules/search/scoring.js';

// Search quality on the labelled set in test/fixtures/search-eval: recall@5 and MRR per query
// class for lexical-only, semantic-only and hybrid search, with the default offline embedder.
// Messages go through the same queue and search code as the server. Exit code 1 when hybrid
// misses its targets or falls below the better single signal on a class.
// D51: the dialogues are spread over four namespaces and none, and every query searches the whole
// project (no namespace), as a client of the list endpoints would; the cross-namespace class
// (held out) has answers in several namespaces. Queries whose answers all sit in one namespace
// are also run within it: that can only move answers up, so a drop there means a filter bug.

const PROJECT = 'prj_eval';
const K = 5;

/** The namespace of fixture dialogue `dNN`: NN modulo 5 picks none or user-a to user-d. */
const NAMESPACES = [null, 'user-a', 'user-b', 'user-c', 'user-d'] as const;
const namespaceOf = (dialogueId: string): string | null =>
  NAMESPACES[Number(dialogueId.slice(1)) % NAMESPACES.length] ?? null;

async function sharedLexemes(db: Executor, a: string, b: string): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT array(SELECT unnest(tsvector_to_array(to_tsvector('english', ${a})))
      INTERSECT SELECT unnest(tsvector_to_array(to_tsvector('english', ${b})))) AS shared`);
  return rowsOf<{ shared: string[] }>(result)[0]!.shared;
}

const pad = (text: string, width: number) => text.padEnd(width);
const fmt = (x: number) => x.toFixed(3);

interface Cell {
  recall: number;
  mrr: number;
  n: number;
}

/** Vectors of the texts the evaluations embed, kept between runs (see lib/cached-embedder.ts). */
const CACHE = 'node_modules/.cache/parley-eval/use-lite-512.json';

/** `--locomo PATH`: the LoCoMo evaluation (scripts/lib/locomo.ts) instead of the labelled set. */
async function locomo(path: string | undefined) {
  if (!path || !existsSync(path)) {
    console.log(`LoCoMo: skipped, no data file${path ? ` at ${path}` : ' given (--locomo PATH)'}`);
    return;
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  await runMigrations(database);
  const embedder = cachedEmbedder(createLocalEmbedder(), CACHE);
  try {
    const ok = await evaluateLocomo({ path, embedder, database, variants: locomoVariants() });
    console.log(ok ? '\nPASS' : '\nFAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    embedder.save();
    await embedder.close();
    await database.close();
  }
}

/** Other rankings printed beside the default with `--variants` (how the default was chosen). */
function locomoVariants() {
  if (!process.argv.includes('--variants')) return [];
  return [
    { name: 'lexical', strategy: 'lexical' as const },
    { name: 'semantic', strategy: 'semantic' as const },
    { name: 'no neighbours', fusion: { ...DEFAULT_FUSION, neighbourWeight: 0 } },
  ];
}

async function main() {
  const fixtureMessages = loadEvalMessages();
  const queries = loadEvalQueries();
  const byMarker = new Map(fixtureMessages.filter((m) => m.marker).map((m) => [m.marker!, m]));
  for (const query of queries) {
    for (const marker of query.relevant) {
      if (!byMarker.has(marker)) throw new Error(`query "${query.query}" names unknown marker ${marker}`);
    }
  }

  const database = await openDatabase({ dataDir: 'memory://' });
  await runMigrations(database);
  const { db } = database;
  const embedder = cachedEmbedder(createLocalEmbedder(), CACHE);
  try {
    await db.insert(projects).values({ id: PROJECT, name: 'eval' });
    const dialogueIds = [...new Set(fixtureMessages.map((m) => m.dialogueId))];
    await db
      .insert(dialogues)
      .values(dialogueIds.map((id) => ({ projectId: PROJECT, id, namespace: namespaceOf(id) })));
    await db.transaction(async (tx) => {
      for (const m of fixtureMessages) {
        // Stored as the append stores them: the row, its words in the search's counts (D140), its job.
        await tx.insert(messages).values({
          projectId: PROJECT,
          dialogueId: m.dialogueId,
          id: m.id,
          namespace: namespaceOf(m.dialogueId),
          role: m.role,
          content: JSON.stringify(m.text),
          contentLength: Buffer.byteLength(JSON.stringify(m.text)),
          searchText: m.text,
        });
        await countTexts(tx, PROJECT, 'message', [
          { namespace: namespaceOf(m.dialogueId), bucketKey: m.dialogueId, text: m.text },
        ]);
        await enqueueEmbedding(tx, {
          projectId: PROJECT,
          objectType: 'message',
          dialogueId: m.dialogueId,
          objectId: m.id,
        });
      }
    });
    await ensureVectorIndexes(database, embedder);
    const started = performance.now();
    const embedded = await drainEmbeddingQueue({ db, embedder, batchSize: 64 });
    const seconds = (performance.now() - started) / 1000;
    const spread = new Set(dialogueIds.map(namespaceOf));
    console.log(
      `${fixtureMessages.length} messages in ${dialogueIds.length} dialogues (${spread.size - 1} namespaces ` +
        `and none, searched project-wide), ${queries.length} queries; ` +
        `embedded ${embedded} messages with ${embedder.id} in ${seconds.toFixed(1)} s through the queue`,
    );

    // The paraphrase class must share no word stem with its answers, or it measures nothing.
    let leaks = 0;
    for (const query of queries.filter((q) => q.class === 'paraphrase')) {
      for (const marker of query.relevant) {
        const shared = await sharedLexemes(db, query.query, byMarker.get(marker)!.text);
        if (shared.length > 0) {
          leaks++;
          console.log(`  paraphrase shares words: "${query.query}" / ${marker}: ${shared.join(', ')}`);
        }
      }
    }
    if (leaks > 0) throw new Error(`${leaks} paraphrase queries share words with their answers`);

    const serviceWith = (fusion: Fusion) =>
      createSearchService({
        readDb: db,
        embedder,
        storeKind: database.kind,
        fusion,
        loaders: keyOnlyLoaders,
        dialogueScope,
      });
    const rank = async (
      fusion: Fusion,
      query: Query,
      strategy: Strategy,
      limit: number,
      namespace?: string,
    ) => {
      const { results } = await serviceWith(fusion).search(
        { projectId: PROJECT, settings: {} },
        searchBody.parse({ query: query.query, limit, namespace }),
        strategy,
      );
      return results.map((r) => r.item.id as string);
    };
    const relevantOf = (query: Query) => new Set(query.relevant.map((marker) => byMarker.get(marker)!.id));

    // Rankings of the single signals, deep enough for reciprocal rank fusion (k = 60) as a baseline.
    const lexicalRanks = new Map<Query, string[]>();
    const semanticRanks = new Map<Query, string[]>();
    for (const query of queries) {
      lexicalRanks.set(query, await rank(DEFAULT_FUSION, query, 'lexical', 100));
      semanticRanks.set(query, await rank(DEFAULT_FUSION, query, 'semantic', 100));
    }
    const rrf = (query: Query) => {
      const score = new Map<string, number>();
      for (const list of [lexicalRanks.get(query)!, semanticRanks.get(query)!]) {
        for (const [i, id] of list.entries()) score.set(id, (score.get(id) ?? 0) + 1 / (60 + i + 1));
      }
      return [...score.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    };

    const classes = [...new Set(queries.map((q) => q.class)), 'all'];
    type Metrics = Map<string, { recall: number; mrr: number; n: number }>;
    const score = (ranked: (query: Query) => string[], misses?: string[]): Metrics => {
      const sums = new Map<string, { recall: number; mrr: number; n: number }>();
      for (const query of queries) {
        const relevant = relevantOf(query);
        const list = ranked(query);
        const found = list.slice(0, K).filter((id) => relevant.has(id)).length;
        const recall = found / Math.min(relevant.size, K);
        const first = list.findIndex((id) => relevant.has(id));
        const rr = first === -1 ? 0 : 1 / (first + 1);
        for (const cls of [query.class, 'all']) {
          const t = sums.get(cls) ?? { recall: 0, mrr: 0, n: 0 };
          sums.set(cls, { recall: t.recall + recall, mrr: t.mrr + rr, n: t.n + 1 });
        }
        if (recall < 1) {
          misses?.push(
            `  [${query.class}] "${query.query}": ${found}/${relevant.size} in top ${K}, first hit at ${first + 1 || '-'}`,
          );
        }
      }
      for (const [cls, t] of sums) sums.set(cls, { recall: t.recall / t.n, mrr: t.mrr / t.n, n: t.n });
      return sums;
    };
    const hybridRanks = async (fusion: Fusion) => {
      const ranks = new Map<Query, string[]>();
      for (const query of queries) ranks.set(query, await rank(fusion, query, 'hybrid', 10));
      return ranks;
    };

    const misses: string[] = [];
    const hybrid = await hybridRanks(DEFAULT_FUSION);
    const columns: [string, Metrics][] = [
      ['lexical', score((q) => lexicalRanks.get(q)!)],
      ['semantic', score((q) => semanticRanks.get(q)!)],
      ['plain RRF', score(rrf)],
      ['hybrid', score((q) => hybrid.get(q)!, misses)],
    ];
    console.log(`\nrecall@${K} / MRR${' '.repeat(8)}${columns.map(([name]) => pad(name, 17)).join('')}`);
    let ok = true;
    for (const cls of classes) {
      const cells = columns.map(([, m]) => m.get(cls)!);
      console.log(
        `${pad(`${cls} (${cells[0]!.n})`, 24)}${cells.map((c) => pad(`${fmt(c.recall)} / ${fmt(c.mrr)}`, 17)).join('')}`,
      );
      const [lexical, semantic, , fused] = cells as [Cell, Cell, Cell, Cell];
      if (fused.recall < Math.max(lexical.recall, semantic.recall)) {
        ok = false;
        console.log(`  hybrid recall@${K} below the better single signal on ${cls}`);
      }
    }
    const overall = columns[3]![1].get('all')!.recall;
    const paraphrase = columns[3]![1].get('paraphrase')!.recall;
    const crossNamespace = columns[3]![1].get('cross-namespace');
    console.log(
      `\nhybrid (${JSON.stringify(DEFAULT_FUSION)}): ` +
        `recall@${K} overall ${fmt(overall)} (target >= 0.90), paraphrase ${fmt(paraphrase)} (target >= 0.85)` +
        (crossNamespace ? `, cross-namespace (held out) ${fmt(crossNamespace.recall)}` : ''),
    );

    // Within one namespace: the queries whose answers all sit in the same (named) namespace.
    const namespacesOf = (query: Query) =>
      new Set(query.relevant.map((marker) => namespaceOf(byMarker.get(marker)!.dialogueId)));
    const scoped = queries.filter((q) => namespacesOf(q).size === 1 && ![...namespacesOf(q)].includes(null));
    let projectWide = 0;
    let within = 0;
    for (const query of scoped) {
      const relevant = relevantOf(query);
      const recallOf = (list: string[]) =>
        list.slice(0, K).filter((id) => relevant.has(id)).length / Math.min(relevant.size, K);
      const namespace = [...namespacesOf(query)][0]!;
      projectWide += recallOf(hybrid.get(query)!);
      within += recallOf(await rank(DEFAULT_FUSION, query, 'hybrid', 10, namespace));
    }
    console.log(
      `hybrid recall@${K} of the ${scoped.length} queries whose answers share one namespace: ` +
        `project-wide ${fmt(projectWide / scoped.length)}, within that namespace ${fmt(within / scoped.length)}`,
    );
    if (within < projectWide) {
      ok = false;
      console.log('  searching within the namespace found less than searching the whole project');
    }
    if (overall < 0.9 || paraphrase < 0.85) ok = false;
    if (misses.length > 0) console.log(`\nhybrid misses:\n${misses.join('\n')}`);

    if (process.argv.includes('--grid')) {
      // How the fusion constants were chosen: hybrid recall@5 per class over a grid.
      console.log(`\nfusion grid (recall@${K}): ${classes.join(' / ')}`);
      for (const semanticWeight of [0.2, 0.3, 0.4]) {
        for (const hubWeight of [0, 0.25]) {
          const ranks = await hybridRanks({ ...DEFAULT_FUSION, semanticWeight, hubWeight });
          const m = score((q) => ranks.get(q)!);
          console.log(
            `  semanticWeight ${semanticWeight} hubWeight ${hubWeight}: ` +
              classes.map((c) => fmt(m.get(c)!.recall)).join(' / '),
          );
        }
      }
    }
    console.log(ok ? '\nPASS' : '\nFAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    embedder.save();
    await embedder.close();
    await database.close();
  }
}

const locomoAt = process.argv.indexOf('--locomo');
if (locomoAt >= 0) await locomo(process.argv[locomoAt + 1]);
else await main();
