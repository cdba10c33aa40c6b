import { type LoadResult, formatLoad, pick, runLoad } from './lib/load.js';
import { type BenchServer, startServer } from './lib/processes.js';
import { type StoreEnv, seedStore } from './lib/seed.js';
import { cursorAtDepth, json } from './lib/pages.js';

// Message figures: POST /message, POST /messages (50), GET /messages deep in a long dialogue and
// GET /dialogue/{id}, each beside the framework and database ceilings measured in the same run
// with the same load generator.

export interface MessageBenchOptions {
  /** Parley's store and the baseline's own (PGlite allows one process per directory). */
  parleyStore: StoreEnv;
  baselineStore: StoreEnv;
  deepMessages: number;
  connections: number;
  durationSeconds: number;
}

export interface Row {
  scenario: string;
  parley: LoadResult;
  framework: LoadResult;
  /** The statements Parley issues, straight through the driver. */
  database: LoadResult;
  /** Only what D35 needs (no key lookup, write counting or embedding job). */
  minimal: LoadResult;
}

const content1KiB = 'Parley keeps every conversation exactly as it was sent. '.repeat(19).slice(0, 1024);
const jsonHeaders = { 'content-type': 'application/json' };

/** Stores Parley's answer on the baseline, whose framework route then returns the same JSON. */
async function can(baselineUrl: string, name: string, body: unknown): Promise<void> {
  await json(`${baselineUrl}/canned/${name}`, {
    method: 'PUT',
    headers: jsonHeaders,
    body: JSON.stringify(body),
  });
}

export async function benchMessages(options: MessageBenchOptions): Promise<Row[]> {
  const { connections, durationSeconds, deepMessages } = options;
  const ours = await seedStore(options.parleyStore, deepMessages);
  const theirs = await seedStore(options.baselineStore, deepMessages);
  const servers: BenchServer[] = [];
  try {
    const parley = await startServer('src/server.ts', {
      ...(options.parleyStore as Record<string, string>),
      EMBEDDINGS: 'none',
      RATE_LIMIT_MAX: '100000000',
    });
    servers.push(parley);
    const baseline = await startServer('bench/baseline-server.ts', {
      ...(options.baselineStore as Record<string, string>),
    });
    servers.push(baseline);
    const auth = { authorization: `Bearer ${ours.apiKey}` };
    const theirAuth = { authorization: `Bearer ${theirs.apiKey}` };
    const api = `${parley.baseUrl}/api/v1`;
    const base = baseline.baseUrl;
    const load = { connections, durationSeconds };
    const rows: Row[] = [];

    /**
     * A write scenario: Parley's route with its body, the framework ceiling answering Parley's own
     * reply, and the database ceiling inserting the same messages into the baseline's dialogues.
     */
    const writeRow = async (
      scenario: string,
      path: string,
      messages: { role: string; content: string }[],
    ) => {
      const body = (dialogueId: string) =>
        path === '/message'
          ? JSON.stringify({ dialogueId, ...messages[0]! })
          : JSON.stringify({ dialogueId, messages });
      const name = path.slice(1);
      const sample = await json(`${api}${path}`, {
        method: 'POST',
        headers: { ...auth, ...jsonHeaders },
        body: body(ours.writeDialogues[0]!),
      });
      await can(base, name, sample);
      const post = { ...load, method: 'POST' as const };
      rows.push({
        scenario,
        parley: await runLoad({
          ...post,
          url: `${api}${path}`,
          headers: auth,
          body: () => body(pick(ours.writeDialogues)),
        }),
        framework: await runLoad({ ...post, url: `${base}/framework/${name}`, body: body('x') }),
        database: await runLoad({
          ...post,
          url: `${base}/sql/messages`,
          headers: theirAuth,
          body: () => JSON.stringify({ dialogueId: pick(theirs.writeDialogues), messages }),
        }),
        minimal: await runLoad({
          ...post,
          url: `${base}/minimal/messages`,
          body: () =>
            JSON.stringify({
              projectId: theirs.projectId,
              dialogueId: pick(theirs.writeDialogues),
              messages,
            }),
        }),
      });
    };

    // 1. POST /message with 1 KiB of content, spread over 16 dialogues; 2. POST /messages, 50 a batch.
    await writeRow('POST /message (1 KiB)', '/message', [{ role: 'user', content: content1KiB }]);
    await writeRow(
      'POST /messages (50 per batch)',
      '/messages',
      Array.from({ length: 50 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `batch message ${i} with a few words`,
      })),
    );

    // 3. GET /messages?limit=50: the first page, and the page 50 messages before the end.
    const depth = deepMessages - 50;
    const firstPage = `${api}/messages?dialogueId=${ours.deepDialogue}&limit=50`;
    const deepPage = `${firstPage}&next=${await cursorAtDepth(api, auth, ours.deepDialogue, depth)}`;
    const key = (await json(
      `${base}/setup/key?projectId=${theirs.projectId}&dialogueId=${theirs.deepDialogue}&depth=${depth - 1}`,
    )) as {
      created: string;
      seq: number;
    };
    const sqlPage = `${base}/sql/messages?dialogueId=${theirs.deepDialogue}`;
    const minimalPage = `${base}/minimal/messages?projectId=${theirs.projectId}&dialogueId=${theirs.deepDialogue}`;
    const deepKey = `&created=${encodeURIComponent(key.created)}&seq=${key.seq}`;
    await can(base, 'page', await json(deepPage, { headers: auth }));
    rows.push({
      scenario: 'GET /messages?limit=50, first page',
      parley: await runLoad({ ...load, url: firstPage, headers: auth }),
      framework: await runLoad({ ...load, url: `${base}/framework/page` }),
      database: await runLoad({ ...load, url: sqlPage, headers: theirAuth }),
      minimal: await runLoad({ ...load, url: minimalPage }),
    });
    rows.push({
      scenario: `GET /messages?limit=50, at depth ${depth}`,
      parley: await runLoad({ ...load, url: deepPage, headers: auth }),
      framework: await runLoad({ ...load, url: `${base}/framework/page` }),
      database: await runLoad({ ...load, url: sqlPage + deepKey, headers: theirAuth }),
      minimal: await runLoad({ ...load, url: minimalPage + deepKey }),
    });

    // 4. GET /dialogue/{id} (the dialogue and its 10 most recent messages).
    await can(base, 'dialogue', await json(`${api}/dialogue/${ours.deepDialogue}`, { headers: auth }));
    rows.push({
      scenario: 'GET /dialogue/{id}',
      parley: await runLoad({ ...load, url: `${api}/dialogue/${ours.deepDialogue}`, headers: auth }),
      framework: await runLoad({ ...load, url: `${base}/framework/dialogue` }),
      database: await runLoad({
        ...load,
        url: `${base}/sql/dialogue/${theirs.deepDialogue}`,
        headers: theirAuth,
      }),
      minimal: await runLoad({
        ...load,
        url: `${base}/minimal/dialogue/${theirs.deepDialogue}?projectId=${theirs.projectId}`,
      }),
    });
    return rows;
  } finally {
    for (const server of servers) await server.stop();
  }
}

export function formatRows(title: string, rows: Row[]): string {
  const lines = [
    `### ${title}`,
    '',
    '| scenario | Parley | framework ceiling | database ceiling (same SQL) | Parley / database | minimal SQL (D35 only) | Parley / minimal |',
    '|---|---|---|---|---|---|---|',
  ];
  const ratio = (ours: LoadResult, theirs: LoadResult) =>
    (ours.requestsPerSecond / theirs.requestsPerSecond).toFixed(2);
  for (const row of rows) {
    lines.push(
      `| ${row.scenario} | ${formatLoad(row.parley)} | ${formatLoad(row.framework)} | ${formatLoad(row.database)} | ${ratio(row.parley, row.database)} | ${formatLoad(row.minimal)} | ${ratio(row.parley, row.minimal)} |`,
    );
  }
  const first = rows.find((r) => r.scenario.includes('first page'));
  const deep = rows.find((r) => r.scenario.includes('at depth'));
  if (first && deep) {
    lines.push(
      '',
      `Page latency at depth / first page (p50): ${(deep.parley.p50Ms / Math.max(first.parley.p50Ms, 0.1)).toFixed(2)}`,
    );
  }
  return lines.join('\n');
}
