import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { openEventStream } from '../helpers/event-stream.js';
import { listen } from '../helpers/mcp.js';

// D191: on the embedded store a write numbers its own events, in its statement (a standalone
// append, D174) or last in its transaction, so that no event row is written twice and no
// numbering transaction follows the write. On PostgreSQL the sequencer numbers them after the
// commit (D63). Which transaction wrote an event row last is its `xmin`.

let ctx: TestContext;
let baseUrl: string;
let embedded: boolean;
beforeAll(async () => {
  ctx = await createTestContext();
  baseUrl = await listen(ctx.app);
  embedded = ctx.app.database.kind === 'pglite';
});
afterAll(async () => {
  await ctx.close();
});

interface EventRow {
  id: string;
  type: string;
  seq: number | null;
  /** The transaction that wrote the row last. */
  writtenBy: string;
  /** The transaction that wrote the event's message row (null for other events). */
  objectWrittenBy: string | null;
}

/** The project's event rows as stored, oldest id first, with the transactions that wrote them. */
async function eventRows(project: TestProject): Promise<EventRow[]> {
  return rowsOf<EventRow>(
    await ctx.app.db.execute(sql`
      SELECT e.id, e.type, e.seq::int AS seq, e.xmin::text AS "writtenBy",
             m.xmin::text AS "objectWrittenBy"
      FROM events e
      LEFT JOIN messages m
        ON m.project_id = e.project_id AND m.dialogue_id = e.dialogue_id AND m.id = e.object_id
      WHERE e.project_id = ${project.projectId}
      ORDER BY e.id COLLATE "C"`),
  );
}

async function newDialogue(as: ReturnType<typeof asProject>): Promise<string> {
  const created = await as({ method: 'POST', url: '/api/v1/dialogue', payload: { label: 'numbered' } });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { id: string }).id;
}

/** `message.created` events counted so far by /metrics (D72). */
async function messagesCounted(): Promise<number> {
  const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
  const line = /^parley_events_written_total\{type="message.created"\} (\d+)$/m.exec(metrics.body);
  return Number(line?.[1] ?? 0);
}

/** A POST /message with an Idempotency-Key, which puts it in a transaction (its record commits with it). */
async function appendInTransaction(as: ReturnType<typeof asProject>, dialogueId: string, content: string) {
  const response = await as({
    method: 'POST',
    url: '/api/v1/message',
    headers: { 'idempotency-key': `in-transaction-${content}` },
    payload: { dialogueId, role: 'user', content },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** Waits until every event of the project has its number (the sequencer's, on PostgreSQL). */
async function settled(project: TestProject): Promise<void> {
  await ctx.app.services.eventSequencer.settle(project.projectId);
}

describe('events numbered by their write (D191)', () => {
  it('a standalone POST /message numbers its event in its own statement on the embedded store', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const dialogueId = await newDialogue(as);
    const appended = await as({
      method: 'POST',
      url: '/api/v1/message',
      payload: { dialogueId, role: 'user', content: 'numbered as written' },
    });
    expect(appended.statusCode, appended.body).toBe(201);
    await settled(project);
    const [event] = (await eventRows(project)).filter((row) => row.type === 'message.created');
    expect(event!.seq).toBe(2);
    // Embedded: the row is the one the append inserted. PostgreSQL: the sequencer rewrote it.
    expect(event!.writtenBy === event!.objectWrittenBy).toBe(embedded);
  });

  it('a transaction numbers its events last, in the order of their ids: the dialogue before its messages', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const created = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: {
        label: 'with messages',
        messages: [
          { role: 'user', content: 'one' },
          { role: 'user', content: 'two' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const dialogueId = (created.json() as { id: string }).id;
    await appendInTransaction(as, dialogueId, 'three');
    await settled(project);
    const rows = await eventRows(project);
    expect(rows.map((row) => [row.type, row.seq])).toEqual([
      ['dialogue.created', 1],
      ['message.created', 2],
      ['message.created', 3],
      ['message.created', 4],
    ]);
    // Embedded: each request's transaction wrote its events once (the dialogue's with its messages).
    const [dialogueEvent, ...messageEvents] = rows;
    expect(dialogueEvent!.writtenBy === messageEvents[0]!.objectWrittenBy).toBe(embedded);
    for (const row of messageEvents) expect(row.writtenBy === row.objectWrittenBy).toBe(embedded);
  });

  it('announces what a write numbered: its streams are woken and its events counted', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const dialogueId = await newDialogue(as);
    await settled(project);
    const stream = await openEventStream(baseUrl, project.auth, '?after=1');
    onTestFinished(() => stream.close());
    expect(stream.status).toBe(200);
    const counted = await messagesCounted();
    // Nothing but the write's announcement wakes the stream: there is no periodic read.
    await as({
      method: 'POST',
      url: '/api/v1/message',
      payload: { dialogueId, role: 'user', content: 'wake' },
    });
    expect((await stream.events(1, 10_000)).map((message) => message.event)).toEqual(['message.created']);
    expect(await messagesCounted()).toBe(counted + 1);
  });

  it('numbers before a write of its own the events a stopped writer left unnumbered, and the sweep any left after', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const dialogueId = await newDialogue(as);
    await settled(project);
    // As a writer that stopped between its commit and its numbering (D63) leaves it.
    await ctx.app.db.execute(sql`
      INSERT INTO events (project_id, id, type, object_id, data)
      VALUES (${project.projectId}, 'evt_00000000000000000000000001', 'memory.created', 'mem_left', '{}')`);
    await appendInTransaction(as, dialogueId, 'after');
    await settled(project);
    const numbered = (await eventRows(project)).map((row) => [row.type, row.seq]);
    // By id the stopped writer's event is the oldest; it is numbered with the next transaction.
    expect(numbered).toEqual([
      ['memory.created', 2],
      ['dialogue.created', 1],
      ['message.created', 3],
    ]);
  });
});
