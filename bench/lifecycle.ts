import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';

// What forks and namespace erasures cost (D160, D164). A fork of a 10,000-message dialogue beside
// its baseline, writing the same 10,000 messages through POST /messages in batches of 100 (what a
// client copying a conversation would do). A namespace erasure of 50,000 messages while writers of
// other projects keep appending messages as fast as they can: their p95 before and during it.

const ADMIN = 'bench-admin-token-0123456789';

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;

async function openApp(store: { databaseUrl?: string }, poolMax: number) {
  const database = await openDatabase({ databaseUrl: store.databaseUrl, dataDir: 'memory://', poolMax });
  await runMigrations(database);
  const config = configFrom({
    ADMIN_TOKEN: ADMIN,
    EMBEDDINGS: 'none',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
    // The benchmark runs the erasure itself, to time it.
    ERASURE_POLL_MS: '3600000',
  });
  const app = await buildApp({ config, database });
  await app.ready();
  return app;
}

async function newProject(app: FastifyInstance): Promise<{ key: string; id: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/projects',
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { name: 'bench' },
  });
  const body = created.json() as { apiKey: string; project: { id: string } };
  return { key: body.apiKey, id: body.project.id };
}

/** A dialogue of `messages` messages written straight into the store (the setup is not measured). */
async function seedDialogue(
  app: FastifyInstance,
  projectId: string,
  id: string,
  namespace: string | null,
  messages: number,
) {
  await app.db.execute(sql`
    INSERT INTO dialogues (project_id, id, namespace, total_messages, last_message_created)
    VALUES (${projectId}, ${id}, ${namespace}, ${messages}, now())`);
  await app.db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, namespace, role, content, content_length, search_text, created)
    SELECT ${projectId}, ${id}, 'msg_' || lpad(i::text, 6, '0'), ${namespace}, 'user',
           '"message ' || i || ' of a long conversation about the weather"', 50,
           'message ' || i || ' of a long conversation about the weather', now() - make_interval(secs => ${messages} - i)
    FROM generate_series(1, ${messages}::int) AS i`);
}

export interface ForkRow {
  what: string;
  ms: number;
}

export async function benchFork(store: { databaseUrl?: string }, messages = 10_000): Promise<ForkRow[]> {
  const app = await openApp(store, 4);
  try {
    const { key, id: projectId } = await newProject(app);
    const headers = { authorization: `Bearer ${key}` };
    await seedDialogue(app, projectId, 'dlg_original', null, messages);
    const forks: number[] = [];
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/dialogue/dlg_original/fork',
        headers,
        payload: {},
      });
      forks.push(performance.now() - started);
      if (response.statusCode !== 201) throw new Error(response.body);
    }
    const target = (
      await app.inject({ method: 'POST', url: '/api/v1/dialogue', headers, payload: {} })
    ).json() as { id: string };
    const started = performance.now();
    for (let start = 0; start < messages; start += 100) {
      const batch = Array.from({ length: 100 }, (_, i) => ({
        role: 'user',
        content: `message ${start + i} of a long conversation about the weather`,
      }));
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers,
        payload: { dialogueId: target.id, messages: batch },
      });
      if (response.statusCode !== 201) throw new Error(response.body);
    }
    const copied = performance.now() - started;
    return [
      { what: `fork of ${messages} messages (median of 3)`, ms: quantile(forks, 0.5) },
      { what: `baseline: the same messages through POST /messages, 100 a request`, ms: copied },
    ];
  } finally {
    await app.close();
  }
}

export interface ErasureBenchResult {
  messages: number;
  erasureMs: number;
  before: { p95Ms: number; writesPerSecond: number };
  during: { p95Ms: number; writesPerSecond: number };
}

export async function benchErasure(
  store: { databaseUrl?: string },
  { dialogues = 50, perDialogue = 1_000, writers = 8, seconds = 5 } = {},
): Promise<ErasureBenchResult> {
  const app = await openApp(store, writers + 4);
  try {
    const doomed = await newProject(app);
    for (let i = 0; i < dialogues; i++)
      await seedDialogue(app, doomed.id, `dlg_gone_${i}`, 'user-gone', perDialogue);
    const others = await Promise.all(Array.from({ length: writers }, () => newProject(app)));
    const targets = await Promise.all(
      others.map(async (project) => {
        const headers = { authorization: `Bearer ${project.key}` };
        const created = await app.inject({ method: 'POST', url: '/api/v1/dialogue', headers, payload: {} });
        return { headers, dialogueId: (created.json() as { id: string }).id };
      }),
    );
    /** Every writer appends a message after another until `until` says stop; latencies and count. */
    const write = async (until: () => boolean) => {
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        targets.map(async ({ headers, dialogueId }) => {
          while (!until()) {
            const begun = performance.now();
            const response = await app.inject({
              method: 'POST',
              url: '/api/v1/message',
              headers,
              payload: { dialogueId, role: 'user', content: 'still writing while another user is forgotten' },
            });
            if (response.statusCode !== 201) throw new Error(response.body);
            latencies.push(performance.now() - begun);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      return { p95Ms: quantile(latencies, 0.95), writesPerSecond: latencies.length / elapsed };
    };
    const deadline = performance.now() + seconds * 1000;
    const before = await write(() => performance.now() > deadline);

    let erasing = true;
    const started = performance.now();
    const erasure = (async () => {
      const requested = await app.inject({
        method: 'DELETE',
        url: '/api/v1/namespaces/user-gone',
        headers: { authorization: `Bearer ${doomed.key}` },
      });
      if (requested.statusCode !== 202) throw new Error(requested.body);
      while ((await app.services.erasures.runDue()) === 0) {
        // Taken by no one else here: runDue completes it in one call.
      }
      erasing = false;
      return performance.now() - started;
    })();
    const during = await write(() => !erasing);
    const erasureMs = await erasure;
    return { messages: dialogues * perDialogue, erasureMs, before, during };
  } finally {
    await app.close();
  }
}

export function formatLifecycle(title: string, forks: ForkRow[], erasure: ErasureBenchResult): string {
  const lines = [`${title}`];
  for (const row of forks) lines.push(`  ${row.what.padEnd(66)} ${row.ms.toFixed(0).padStart(7)} ms`);
  lines.push(
    `  namespace erasure of ${erasure.messages} messages: ${(erasure.erasureMs / 1000).toFixed(1)} s ` +
      `(${Math.round(erasure.messages / (erasure.erasureMs / 1000))} messages/s)`,
    `  other projects' appends before: p95 ${erasure.before.p95Ms.toFixed(1)} ms, ${erasure.before.writesPerSecond.toFixed(0)} writes/s`,
    `  other projects' appends during: p95 ${erasure.during.p95Ms.toFixed(1)} ms, ${erasure.during.writesPerSecond.toFixed(0)} writes/s`,
  );
  return lines.join('\n');
}
