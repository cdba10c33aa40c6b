import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { rowsOf } from '../../src/db/client.js';
import { ADMIN_TOKEN, type TestProject, asProject, createProject, stubEmbedder } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';

// D79: with EMBEDDINGS=none no write queues an embedding job (the one-statement append, the
// services' enqueue, compaction); jobs queued before stay for an embedder configured later.

let database: TestDatabase;
/** Built with `embedder: null`, as EMBEDDINGS=none builds it. */
let lexical: FastifyInstance;
/** The same database with an embedder (its worker off): what a later configuration would run. */
let semantic: FastifyInstance;
let project: TestProject;
let api: Api;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = configFrom({
    ADMIN_TOKEN,
    EMBEDDING_WORKER: 'false',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  lexical = await buildApp({ config, database: database.handle, embedder: null });
  semantic = await buildApp({ config, database: database.handle, embedder: stubEmbedder() });
  await lexical.ready();
  await semantic.ready();
  project = await createProject(lexical);
  api = asProject(lexical, project);
});
afterAll(async () => {
  await lexical?.close();
  await semantic?.close();
  await database?.close();
});

async function jobs(): Promise<string[]> {
  const result = await database.handle.db.execute(sql`
    SELECT object_type || ':' || object_id AS job FROM embedding_jobs
    WHERE project_id = ${project.projectId} ORDER BY 1`);
  return rowsOf<{ job: string }>(result).map((row) => row.job);
}

async function expectStatus(response: { statusCode: number; body: string }, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  return JSON.parse(response.body) as { id: string };
}

describe('no embedding jobs without an embedder (D79)', () => {
  it('queues nothing for dialogues, messages, memories and summaries, and keeps jobs queued before', async () => {
    // A job queued while an embedder was configured.
    await database.handle.db.execute(sql`
      INSERT INTO embedding_jobs (project_id, object_type, object_id)
      VALUES (${project.projectId}, 'memory', 'mem_queued_before')`);

    const dialogue = await createDialogue(api, {
      label: 'Trip to Lisbon',
      tags: ['travel'],
      messages: [
        { role: 'user', content: 'Book a flight to Lisbon for the 12th.' },
        { role: 'assistant', content: 'Booked TAP 1353, leaving 09:40.' },
      ],
    });
    await addMessage(api, dialogue.id, { role: 'user', content: 'And a hotel near the river.' });
    await expectStatus(
      await api({
        method: 'POST',
        url: `${V1}/messages`,
        payload: {
          dialogueId: dialogue.id,
          messages: [
            { role: 'assistant', content: 'Hotel Avenida, three nights.' },
            { role: 'user', content: 'Thanks, that works.' },
          ],
        },
      }),
      201,
    );
    await expectStatus(
      await api({
        method: 'PUT',
        url: `${V1}/dialogue/${dialogue.id}`,
        payload: { tags: ['travel', 'booked'], messages: [{ role: 'user', content: 'One more thing.' }] },
      }),
      200,
    );
    await expectStatus(await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact` }), 200);
    await expectStatus(await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/continue` }), 201);
    const memory = await expectStatus(
      await api({
        method: 'POST',
        url: `${V1}/memory`,
        payload: { label: 'seat', value: 'Aisle seats only' },
      }),
      201,
    );
    await expectStatus(
      await api({ method: 'PUT', url: `${V1}/memory/${memory.id}`, payload: { value: 'Window seats now' } }),
      200,
    );

    expect(await jobs()).toEqual(['memory:mem_queued_before']);
  });

  it('queues again once an embedder is configured, beside the jobs kept', async () => {
    const viaSemantic = asProject(semantic, project);
    const dialogue = await createDialogue(viaSemantic, {
      label: 'Embedded',
      messages: [{ role: 'user', content: 'Appended by the one statement with its jobs part.' }],
    });
    const message = await addMessage(viaSemantic, dialogue.id, { role: 'user', content: 'And one more.' });
    // The embedder-less app, still running, keeps to itself: its append adds no job.
    await addMessage(api, dialogue.id, { role: 'user', content: 'Not queued.' });
    const queued = await jobs();
    expect(queued).toContain('memory:mem_queued_before');
    expect(queued).toContain(`dialogue:${dialogue.id}`);
    expect(queued).toContain(`message:${message.id}`);
    expect(queued).toHaveLength(4);
  });
});
