import type { Logger } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vectorIndexName } from '../../src/modules/embeddings/vector-sql.js';
import { drainEmbeddingQueue } from '../../src/modules/embeddings/worker.js';
import { eventOutboxFor } from '../../src/modules/events/outbox.js';
import { startWebhookWorker, webhookSettings } from '../../src/modules/webhooks/worker.js';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  stubEmbedder,
} from '../helpers/app.js';
import { testServerIsCitus } from '../helpers/database.js';
import { V1, createDialogue } from '../helpers/dialogues.js';
import { eventually } from '../helpers/eventually.js';

// D49: on Citus every statement of a request path runs on the one worker that holds
// the project: a router plan with a single task, no step through the coordinator. The statements
// are the ones the app really runs (recorded through the query logger while real requests go
// through), each then explained on the cluster with its own parameters.

const citus = await testServerIsCitus();

interface Recorded {
  query: string;
  params: unknown[];
}

interface Routing {
  router: boolean;
  provider: string;
  tasks: number | null;
  node: string | null;
}

/** A single-task Citus plan without subplans (no intermediate results through the coordinator). */
function routingOf(plan: Record<string, unknown>): Routing {
  const root = plan.Plan as Record<string, unknown>;
  const provider = String(root['Custom Plan Provider'] ?? root['Node Type']);
  const job = (root['Distributed Query'] as { Job?: Record<string, unknown> } | undefined)?.Job;
  const tasks = typeof job?.['Task Count'] === 'number' ? (job['Task Count'] as number) : null;
  const task = (job?.Tasks as Record<string, unknown>[] | undefined)?.[0];
  const subplans = JSON.stringify(plan).includes('"Subplans"');
  return {
    router: provider === 'Citus Adaptive' && tasks === 1 && !subplans,
    provider: subplans ? `${provider} with subplans` : provider,
    tasks,
    node:
      typeof task?.Node === 'string' ? task.Node.replace(/^host=\S+ /, '').replace(/ dbname=\S+$/, '') : null,
  };
}

// `SELECT pg_notify(...)` (D66: the numbering's wake-up) reads no table: it runs on the coordinator
// alone, no shard is involved.
const isDataStatement = (query: string) =>
  /^\s*(select|insert|update|delete|with)\b/i.test(query) && !/^\s*select pg_notify\(/i.test(query);

describe.runIf(citus)('every hot statement is routed to one shard (Citus)', () => {
  let ctx: TestContext;
  let explainer: pg.Client;
  let recording: Recorded[] | undefined;
  const queryLogger: Logger = {
    logQuery(query, params) {
      recording?.push({ query, params });
    },
  };

  /** The data statements that `action` makes the app run. */
  async function statementsOf(action: () => Promise<unknown>): Promise<Recorded[]> {
    recording = [];
    try {
      await action();
      return recording.filter((statement) => isDataStatement(statement.query));
    } finally {
      recording = undefined;
    }
  }

  const found: { operation: string; statement: string; routing: Routing }[] = [];
  async function explain(operation: string, statements: Recorded[]): Promise<Routing[]> {
    expect(statements.length, operation).toBeGreaterThan(0);
    const routings: Routing[] = [];
    for (const { query, params } of statements) {
      const result = await explainer.query(`EXPLAIN (FORMAT JSON) ${query}`, params);
      const routing = routingOf((result.rows[0]['QUERY PLAN'] as Record<string, unknown>[])[0]!);
      found.push({ operation, statement: query.replace(/\s+/g, ' ').trim().slice(0, 90), routing });
      routings.push(routing);
    }
    return routings;
  }

  beforeAll(async () => {
    ctx = await createTestContext(
      {
        EMBEDDING_WORKER: 'false',
        WEBHOOK_WORKER: 'false',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // The namespace-erasure worker's look-up for due erasures (D164) spans shards and locks
        // nothing, like the workers' above: after its first round at start it stays out of the way.
        ERASURE_POLL_MS: '3600000',
      },
      { embedder: stubEmbedder(), queryLogger },
    );
    explainer = new pg.Client({ connectionString: ctx.database.url });
    await explainer.connect();
  });
  afterAll(async () => {
    console.log(
      `Routing of the hot statements (Citus, ${found.length} statements):\n${found
        .map(
          ({ operation, statement, routing }) =>
            `  ${routing.router ? 'router' : 'all shards'}  ${operation.padEnd(22)} ${routing.provider}, tasks ${routing.tasks}, ${routing.node ?? '-'}  ${statement}`,
        )
        .join('\n')}`,
    );
    await explainer?.end();
    await ctx?.close();
  });

  it('append, page, get, search candidates, quota counters and idempotency: one task each', async () => {
    const project = await createProject(ctx.app, { monthlyWriteQuota: 1_000_000 });
    const api = asProject(ctx.app, project);
    const dialogue = await createDialogue(api, {
      label: 'routing',
      messages: [{ role: 'user', content: 'hello' }],
    });
    for (let i = 0; i < 3; i++) {
      await api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: dialogue.id, role: 'user', content: `warm ${i}` },
      });
    }

    const operations: [string, () => Promise<unknown>][] = [
      [
        'append (POST /message)',
        () =>
          api({
            method: 'POST',
            url: `${V1}/message`,
            headers: { 'idempotency-key': 'routing-append' },
            payload: { dialogueId: dialogue.id, role: 'user', content: 'the lighthouse keeper' },
          }),
      ],
      [
        'append (POST /messages)',
        () =>
          api({
            method: 'POST',
            url: `${V1}/messages`,
            payload: {
              dialogueId: dialogue.id,
              messages: [
                { role: 'user', content: 'one' },
                { role: 'assistant', content: 'two' },
              ],
            },
          }),
      ],
      [
        'page (GET /messages)',
        () => api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}&limit=2` }),
      ],
      ['get (GET /dialogue/{id})', () => api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}` })],
      [
        'search candidates',
        () => api({ method: 'POST', url: `${V1}/search`, payload: { query: 'lighthouse keeper' } }),
      ],
    ];
    for (const [operation, action] of operations) {
      const routings = await explain(operation, await statementsOf(action));
      expect(
        routings.filter((routing) => !routing.router),
        operation,
      ).toEqual([]);
    }
    // The page after the first: the keyset cursor.
    const first = (
      await api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}&limit=2` })
    ).json() as {
      next?: string;
    };
    const page2 = await statementsOf(() =>
      api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}&limit=2&next=${first.next}` }),
    );
    expect((await explain('page 2 (GET /messages)', page2)).filter((routing) => !routing.router)).toEqual([]);
  });

  it('a hybrid search tells Citus to carry its settings to the worker that runs it (D182)', async () => {
    const api = asProject(ctx.app, await createProject(ctx.app));
    await createDialogue(api, { messages: [{ role: 'user', content: 'the lighthouse keeper' }] });
    recording = [];
    try {
      await api({ method: 'POST', url: `${V1}/search`, payload: { query: 'lighthouse keeper' } });
      const settings = recording.map(({ query }) => query).filter((query) => /^\s*SET LOCAL /i.test(query));
      // Citus carries a SET LOCAL to the workers only when told to first, in the same transaction.
      expect(settings[0]).toMatch(/^SET LOCAL citus\.propagate_set_commands = local$/);
      expect(settings.slice(1).map((query) => query.split('=')[0]!.trim())).toEqual([
        'SET LOCAL hnsw.iterative_scan',
        'SET LOCAL hnsw.ef_search',
        'SET LOCAL max_parallel_workers_per_gather',
      ]);
    } finally {
      recording = undefined;
    }
  });

  it("each shard of every searchable table has the model's HNSW index (D41, built through the coordinator)", async () => {
    for (const table of ['messages', 'dialogues', 'memories']) {
      const name = vectorIndexName(table as 'messages', stubEmbedder(), 'halfvec');
      const result = await explainer.query(
        `SELECT success, result FROM run_command_on_placements($1::regclass,
           $$SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
             WHERE i.indrelid = '%s'::regclass AND a.amname = 'hnsw' AND i.indisvalid AND c.relname LIKE '${name}%%'$$)`,
        [table],
      );
      expect(result.rows, table).toHaveLength(4);
      for (const row of result.rows) expect(row, table).toEqual({ success: true, result: '1' });
    }
  });

  it('the job claim and completion: one task each; only the look for projects with due jobs spans shards, and locks nothing', async () => {
    const statements = await statementsOf(() =>
      drainEmbeddingQueue({ db: ctx.app.db, embedder: stubEmbedder(), reindexAtStart: false }),
    );
    const discovery = statements.filter((statement) => /GROUP BY project_id/i.test(statement.query));
    const claims = statements.filter((statement) => !discovery.includes(statement));
    expect(claims.some((statement) => /FOR UPDATE SKIP LOCKED/i.test(statement.query))).toBe(true);
    expect((await explain('job claim', claims)).filter((routing) => !routing.router)).toEqual([]);
    expect(discovery.length).toBeGreaterThan(0);
    for (const statement of discovery) expect(statement.query).not.toMatch(/FOR UPDATE/i);
    await explain('due projects (worker)', discovery.slice(0, 1));
  });

  it('webhook queueing, claim and attempt: one task each; only the look-ups for projects with work and for old log rows span shards, and lock nothing', async () => {
    const project = await createProject(ctx.app, { monthlyWriteQuota: 1_000_000 });
    const api = asProject(ctx.app, project);
    // Nothing listens on port 1: the attempt fails at once and is scheduled again.
    await api({ method: 'POST', url: `${V1}/webhooks`, payload: { url: 'http://127.0.0.1:1/hook' } });
    await api({ method: 'POST', url: `${V1}/memory`, payload: { value: 'routing' } });
    const statements = await statementsOf(async () => {
      const worker = startWebhookWorker({
        ...webhookSettings(ctx.config),
        retryScheduleMs: [600_000],
        db: ctx.app.db,
        events: ctx.app.services.events,
        outbox: eventOutboxFor(ctx.app.database),
        hub: ctx.app.services.eventHub,
      });
      await eventually(
        async () =>
          (
            await explainer.query(
              `SELECT 1 FROM webhook_attempts WHERE project_id = $1 AND status = 'failed'`,
              [project.projectId],
            )
          ).rowCount !== 0,
        { what: 'a failed delivery attempt' },
      );
      await worker.stop();
    });
    const lookups = statements.filter((statement) => /\bUNION\b|created < now\(\)/i.test(statement.query));
    const routed = statements.filter((statement) => !lookups.includes(statement));
    expect(routed.some((statement) => /SKIP LOCKED/i.test(statement.query))).toBe(true);
    expect((await explain('webhook worker', routed)).filter((routing) => !routing.router)).toEqual([]);
    expect(lookups.length).toBeGreaterThan(0);
    for (const statement of lookups) expect(statement.query).not.toMatch(/FOR UPDATE/i);
  });
});
