import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteGuard } from '../../src/db/unit-of-work.js';
import { type Executor, rowsOf } from '../../src/db/client.js';
import { TENANT_TABLES } from '../../src/db/tenant-tables.js';
import { deleteProjectRows } from '../../src/modules/projects/repository.js';
import { ERASE_BATCH_ROWS } from '../../src/modules/projects/erasure.js';
import { claimProjectErasure, insertProjectErasure } from '../../src/modules/projects/erasure-repository.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
  expectError,
  stubEmbedder,
} from '../helpers/app.js';
import { testServerUrl } from '../helpers/database.js';
import { V1, createDialogue } from '../helpers/dialogues.js';

// D74: erasing a project removes every row it owns, in every table that holds project_id, and
// nothing of another project; no write lands once the erasure has begun.

let ctx: TestContext;

beforeAll(async () => {
  // An embedder (its worker off) so that writes queue embedding jobs (D79) and the queue holds rows.
  ctx = await createTestContext(
    { EMBEDDING_WORKER: 'false', WEBHOOK_WORKER: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' },
    { embedder: stubEmbedder() },
  );
});
afterAll(async () => ctx?.close());

const admin = (options: InjectOptions) =>
  ctx.app.inject({
    ...options,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(options.headers ?? {}) },
  });

/** `confirm: null` sends none. */
const erase = (id: string, confirm: string | null = id) =>
  admin({
    method: 'DELETE',
    url: `/admin/v1/projects/${id}${confirm === null ? '' : `?confirm=${encodeURIComponent(confirm)}`}`,
  });

/** Every table of the migrated database with a project_id column, as the catalog says. */
async function catalogTables(): Promise<string[]> {
  const result = await ctx.app.db.execute(sql`
    SELECT table_name AS name FROM information_schema.columns
    WHERE table_schema = 'public' AND column_name = 'project_id' ORDER BY 1`);
  return rowsOf<{ name: string }>(result).map((row) => row.name);
}

/** The project's rows in every table that has project_id, and its row in `projects`. */
async function rowCounts(projectId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const projects = await ctx.app.db.execute(
    sql`SELECT count(*)::int AS n FROM projects WHERE id = ${projectId}`,
  );
  counts.projects = rowsOf<{ n: number }>(projects)[0]!.n;
  for (const table of await catalogTables()) {
    const result = await ctx.app.db.execute(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE project_id = ${projectId}`,
    );
    counts[table] = rowsOf<{ n: number }>(result)[0]!.n;
  }
  return counts;
}

/** Data of every kind, through the API, then in bulk so that tables need several batches. */
async function fill(project: TestProject, bulk: number) {
  const api = asProject(ctx.app, project);
  const write = async (options: InjectOptions, key?: string) => {
    const response = await api({ ...options, headers: key ? { 'idempotency-key': key } : {} });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: string };
  };
  const created = await admin({ method: 'POST', url: `/admin/v1/projects/${project.projectId}/keys` });
  expect(created.statusCode).toBe(201);
  const dialogue = await write(
    {
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: {
        label: 'Erase me',
        tags: ['gdpr'],
        messages: [
          { role: 'user', content: 'My name is Ada and I live at 12 Elm Street.' },
          { role: 'assistant', content: 'Noted, Ada.' },
        ],
      },
    },
    'create-dialogue',
  );
  await createDialogue(api, { threadOf: dialogue.id, messages: [{ role: 'user', content: 'A thread.' }] });
  await write(
    {
      method: 'POST',
      url: `${V1}/messages`,
      payload: { dialogueId: dialogue.id, messages: [{ role: 'user', content: 'More about me.' }] },
    },
    'add-messages',
  );
  await write({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact` });
  await write(
    { method: 'POST', url: `${V1}/memory`, payload: { label: 'home', value: '12 Elm Street' } },
    'mem',
  );
  // A webhook endpoint with a queued test delivery and its pending log row (no worker runs here).
  const hook = (
    await api({ method: 'POST', url: `${V1}/webhooks`, payload: { url: 'http://127.0.0.1:9/hook' } })
  ).json();
  expect((await api({ method: 'POST', url: `${V1}/webhooks/${hook.id}/test` })).statusCode).toBe(202);
  // Reading the feed numbers its events first (D63): the project's event_sequences row exists.
  expect((await api({ method: 'GET', url: `${V1}/events` })).json().items.length).toBeGreaterThan(0);

  const db = ctx.app.db;
  const { projectId } = project;
  await db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES (${projectId}, 'dlg_bulk')`);
  await db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text)
    SELECT ${projectId}, 'dlg_bulk', 'msg_' || i, 'user', '"bulk"', 6, 'bulk'
    FROM generate_series(1, ${bulk}::int) AS i`);
  await db.execute(sql`
    INSERT INTO idempotency_keys (project_id, key, request_hash, status_code, response_body)
    SELECT ${projectId}, 'bulk-' || i, 'hash', 201, '{}' FROM generate_series(1, ${bulk}::int) AS i`);
  await db.execute(sql`
    INSERT INTO embedding_jobs (project_id, object_type, dialogue_id, object_id)
    SELECT ${projectId}, 'message', 'dlg_bulk', 'msg_' || i FROM generate_series(1, ${bulk}::int) AS i`);
  // D162: the receipt of a finished namespace erasure.
  await db.execute(sql`
    INSERT INTO erasures (project_id, id, namespace, status) VALUES (${projectId}, 'era_done', 'gone', 'completed')`);
}

describe('DELETE /admin/v1/projects/{id} (D74)', () => {
  it('erases every row of the project in every table, and nothing of another project', async () => {
    const doomed = await createProject(ctx.app);
    const other = await createProject(ctx.app);
    await fill(doomed, 2 * ERASE_BATCH_ROWS + 500);
    await fill(other, 300);
    const before = await rowCounts(doomed.projectId);
    const otherBefore = await rowCounts(other.projectId);
    // The data reaches every table with project_id: a new table must be filled here too.
    for (const [table, count] of Object.entries(before)) expect(count, table).toBeGreaterThan(0);
    expect(before.api_keys).toBe(2);

    const response = await erase(doomed.projectId);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toEqual({
      success: true,
      id: doomed.projectId,
      deleted: before,
      erasure: {
        id: expect.stringMatching(/^era_/),
        projectId: doomed.projectId,
        status: 'completed',
        counts: { dialogues: before.dialogues, messages: before.messages, memories: before.memories },
        rows: before,
        createdAt: expect.any(String),
        completedAt: expect.any(String),
      },
    });

    const after = await rowCounts(doomed.projectId);
    for (const [table, count] of Object.entries(after)) expect(count, table).toBe(0);
    expect(await rowCounts(other.projectId)).toEqual(otherBefore);

    expectError(
      await asProject(ctx.app, doomed)({ method: 'GET', url: `${V1}/dialogue` }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await admin({ method: 'GET', url: `/admin/v1/projects/${doomed.projectId}` }),
      404,
      'PROJECT_NOT_FOUND',
    );
    const listed = await asProject(ctx.app, other)({ method: 'GET', url: `${V1}/dialogue` });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.length).toBeGreaterThan(0);
  });

  it('covers every table with project_id, as the schema declares and the database holds', async () => {
    // The erasure walks TENANT_TABLES, read from src/db/schema.ts: a table that the database
    // holds but the list lacks would keep the project's rows.
    expect(TENANT_TABLES.map((table) => table.name).sort()).toEqual(await catalogTables());
    // Children before parents, so that no batch leaves a cascade behind.
    const position = (name: string) => TENANT_TABLES.findIndex((table) => table.name === name);
    for (const table of TENANT_TABLES)
      for (const parent of table.references) expect(position(table.name)).toBeLessThan(position(parent));
    // Which tables lose their rows with the project row (ON DELETE CASCADE, directly or through
    // another table) is what the migrated constraints say.
    const result = await ctx.app.db.execute(sql`
      SELECT t.relname AS "table", r.relname AS "references"
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND c.contype = 'f' AND c.confdeltype = 'c' AND t.oid <> r.oid`);
    const cascading = rowsOf<{ table: string; references: string }>(result);
    const fromProject = new Set(['projects']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const { table, references } of cascading) {
        if (fromProject.has(references) && !fromProject.has(table)) {
          fromProject.add(table);
          grew = true;
        }
      }
    }
    for (const table of TENANT_TABLES)
      expect(table.cascadesFromProject, table.name).toBe(fromProject.has(table.name));
    expect(
      TENANT_TABLES.filter((table) => !table.cascadesFromProject)
        .map((table) => table.name)
        .sort(),
    ).toEqual([
      'embedding_jobs',
      'erasures',
      'event_sequences',
      'events',
      'idempotency_keys',
      'search_terms',
      'usage_counters',
    ]);
  });

  it('erases threads before their parents, however the batches fall (D23: the thread link has no ON DELETE action)', async () => {
    const { projectId } = await createProject(ctx.app);
    const db = ctx.app.db;
    // A thread of a thread of a dialogue, inserted parent first; batches of one row each.
    for (const [id, parent] of [
      ['dlg_root', null],
      ['dlg_child', 'dlg_root'],
      ['dlg_grandchild', 'dlg_child'],
    ]) {
      await db.execute(
        sql`INSERT INTO dialogues (project_id, id, thread_of) VALUES (${projectId}, ${id}, ${parent})`,
      );
    }
    const dialogues = TENANT_TABLES.find((table) => table.name === 'dialogues')!;
    expect(dialogues.selfReferences).toEqual([
      { columns: ['project_id', 'thread_of'], referenced: ['project_id', 'id'] },
    ]);
    const removed = [];
    for (let batch = 0; batch < 3; batch++)
      removed.push(await deleteProjectRows(db, dialogues, projectId, 1));
    expect(removed).toEqual([1, 1, 1]);
  });

  it('refuses without a confirm that repeats the id, and answers an unknown id with 404', async () => {
    const project = await createProject(ctx.app);
    const missing = expectError(await erase(project.projectId, null), 400, 'INVALID_PARAMETER');
    expect(missing.details?.[0]?.field).toBe('confirm');
    const wrong = expectError(await erase(project.projectId, 'prj_other'), 400, 'INVALID_PARAMETER');
    expect(wrong.details).toEqual([
      { field: 'confirm', code: 'INVALID_PARAMETER', message: 'must equal the project id' },
    ]);
    expectError(await erase(project.projectId, ''), 400, 'INVALID_PARAMETER');
    // Nothing happened: the key still works.
    expect((await asProject(ctx.app, project)({ method: 'GET', url: `${V1}/dialogue` })).statusCode).toBe(
      200,
    );

    expectError(await erase('prj_unknown'), 404, 'PROJECT_NOT_FOUND');
    const anonymous = await ctx.app.inject({
      method: 'DELETE',
      url: `/admin/v1/projects/${project.projectId}?confirm=${project.projectId}`,
    });
    expectError(anonymous, 401, 'UNAUTHORIZED');
  });

  it('is in the admin part of the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
    const operation = document.paths['/admin/v1/projects/{id}'].delete;
    expect(operation.operationId).toBe('adminEraseProject');
    expect(operation.security).toEqual([{ adminToken: [] }]);
    expect(operation.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'confirm', in: 'query', required: true })]),
    );
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '503',
    ]);
    expect(document.components.schemas.ProjectErasure).toBeDefined();
  });
});

describe('the record of a project erasure (D166)', () => {
  const getErasure = (id: string) => admin({ method: 'GET', url: `/admin/v1/erasures/${id}` });

  /** A project with a few objects of every kind, and its rows per table. */
  async function filledProject() {
    const project = await createProject(ctx.app);
    await fill(project, 20);
    return { project, before: await rowCounts(project.projectId) };
  }

  it('outlives the project: read again by id, answered again to a retry, and it holds counts, never content', async () => {
    const { project, before } = await filledProject();
    const first = await erase(project.projectId);
    expect(first.statusCode, first.body).toBe(200);
    const { erasure } = first.json();
    expect(erasure.counts).toEqual({
      dialogues: before.dialogues,
      messages: before.messages,
      memories: before.memories,
    });
    expect(erasure.counts.messages).toBeGreaterThan(0);
    expect(Date.parse(erasure.completedAt)).toBeGreaterThanOrEqual(Date.parse(erasure.createdAt));

    const read = await getErasure(erasure.id);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(erasure);

    // A retry (a timeout on the caller's side, say) answers the same completed record.
    const retry = await erase(project.projectId);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());

    const stored = rowsOf<Record<string, unknown>>(
      await ctx.app.db.execute(
        sql`SELECT * FROM project_erasures WHERE erased_project_id = ${project.projectId}`,
      ),
    );
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain('Elm Street');
  });

  it('answers an unknown erasure with 404, and only to the admin token', async () => {
    expectError(await getErasure('era_unknown'), 404, 'RESOURCE_NOT_FOUND');
    const { project } = await filledProject();
    const { erasure } = (await erase(project.projectId)).json();
    const anonymous = await ctx.app.inject({ method: 'GET', url: `/admin/v1/erasures/${erasure.id}` });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    const other = await createProject(ctx.app);
    expectError(
      await asProject(ctx.app, other)({ method: 'GET', url: `/admin/v1/erasures/${erasure.id}` }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('while another request holds the erasure, answers it as it stands and deletes nothing', async () => {
    const { project, before } = await filledProject();
    const pending = (await insertProjectErasure(ctx.app.db, {
      id: 'era_held',
      erasedProjectId: project.projectId,
    }))!;
    const live = new Date(Date.now() + 60_000);
    expect(await claimProjectErasure(ctx.app.db, pending.id, new Date(), live)).toBeDefined();

    const response = await erase(project.projectId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: false,
      id: project.projectId,
      erasure: { id: 'era_held', status: 'pending', completedAt: null },
    });
    expect(await rowCounts(project.projectId)).toEqual(before);
  });

  it('resumes an erasure whose request stopped (its lease ran out), the project row already gone, under the same record', async () => {
    const { project } = await filledProject();
    const pending = (await insertProjectErasure(ctx.app.db, {
      id: 'era_crashed',
      erasedProjectId: project.projectId,
    }))!;
    await claimProjectErasure(ctx.app.db, pending.id, new Date(), new Date(Date.now() - 1000));
    // What a crash between steps 3 and 4 leaves: the project row and what cascades from it gone,
    // the rows of the tables without that foreign key still there.
    const leftOver = TENANT_TABLES.filter((table) => !table.cascadesFromProject);
    await ctx.app.db.transaction(async (tx) => {
      for (const table of TENANT_TABLES.filter((t) => t.cascadesFromProject)) {
        await deleteProjectRows(tx, table, project.projectId);
      }
      await tx.execute(sql`DELETE FROM projects WHERE id = ${project.projectId}`);
    });
    const remaining = await rowCounts(project.projectId);
    const jobs = leftOver.reduce((sum, table) => sum + (remaining[table.name] ?? 0), 0);
    expect(jobs).toBeGreaterThan(0);

    const response = await erase(project.projectId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      erasure: { id: 'era_crashed', status: 'completed' },
    });
    const after = await rowCounts(project.projectId);
    for (const [table, count] of Object.entries(after)) expect(count, table).toBe(0);
    const rows = response.json().erasure.rows as Record<string, number>;
    expect(leftOver.reduce((sum, table) => sum + rows[table.name]!, 0)).toBe(jobs);
  });

  it('is in the admin part of the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
    const operation = document.paths['/admin/v1/erasures/{id}'].get;
    expect(operation.operationId).toBe('adminGetProjectErasure');
    expect(operation.security).toEqual([{ adminToken: [] }]);
    expect(document.components.schemas.ProjectErasureRecord).toBeDefined();
  });
});

// A write accepted before the erasure can still be in its transaction. On PGlite transactions
// run one at a time, so the race exists only on PostgreSQL.
describe.runIf(testServerUrl())('a write in flight during the erasure (D74)', () => {
  /**
   * A guard that holds the project's next write inside its transaction until released, after
   * `before` ran in that transaction.
   */
  function holdNextWrite(
    projectId: string,
    position: 'first' | 'last',
    before: (tx: Executor) => Promise<unknown> = async () => {},
  ) {
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    const guard: WriteGuard = async (tx, context) => {
      if (context.projectId !== projectId || held) return;
      held = true;
      await before(tx);
      entered();
      await released;
    };
    if (position === 'first') ctx.app.writeGuards.unshift(guard);
    else ctx.app.writeGuards.push(guard);
    return {
      inside,
      release,
      remove: () => ctx.app.writeGuards.splice(ctx.app.writeGuards.indexOf(guard), 1),
    };
  }

  const lateWrite = (project: TestProject) =>
    asProject(
      ctx.app,
      project,
    )({
      method: 'POST',
      url: `${V1}/dialogue`,
      headers: { 'idempotency-key': 'in-flight' },
      payload: { label: 'late', messages: [{ role: 'user', content: 'written during the erasure' }] },
    });

  it('a write that commits while the erasure runs is erased with the rest', async () => {
    const project = await createProject(ctx.app);
    await fill(project, 50);
    const before = await rowCounts(project.projectId);
    // Held mid-transaction with the project's dialogue rows locked, as an update holds its row:
    // the erasure waits for it, and it commits (adding a dialogue) while the erasure runs.
    const hold = holdNextWrite(project.projectId, 'last', (tx) =>
      tx.execute(sql`SELECT id FROM dialogues WHERE project_id = ${project.projectId} FOR UPDATE`),
    );
    let erased: LightMyRequestResponse;
    try {
      const write = lateWrite(project);
      await hold.inside;
      const erasure = erase(project.projectId);
      await sleep(300);
      hold.release();
      const written = await write;
      expect(written.statusCode, written.body).toBe(201);
      erased = await erasure;
    } finally {
      hold.remove();
    }
    expect(erased.statusCode, erased.body).toBe(200);
    const { deleted } = erased.json() as { deleted: Record<string, number> };
    // The erasure counted what the late write added.
    expect(deleted.dialogues).toBe(before.dialogues! + 1);
    expect(deleted.messages).toBe(before.messages! + 1);
    expect(deleted.idempotency_keys).toBe(before.idempotency_keys! + 1);
    for (const [table, count] of Object.entries(await rowCounts(project.projectId)))
      expect(count, table).toBe(0);
  });

  it('a write that goes on after the erasure fails whole, its usage count and idempotency record too', async () => {
    const project = await createProject(ctx.app);
    await fill(project, 50);
    // Held before it wrote anything: authenticated before the revocation, resumed after the erasure.
    const hold = holdNextWrite(project.projectId, 'first');
    try {
      const write = lateWrite(project);
      await hold.inside;
      const erased = await erase(project.projectId);
      expect(erased.statusCode, erased.body).toBe(200);
      hold.release();
      expectError(await write, 404, 'PROJECT_NOT_FOUND');
    } finally {
      hold.remove();
    }
    for (const [table, count] of Object.entries(await rowCounts(project.projectId)))
      expect(count, table).toBe(0);
  });
});
