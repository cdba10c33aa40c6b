import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { EXTRACTIVE_MODEL } from '../../src/summarizers/extractive.js';
import type { Summarizer, SummaryInput } from '../../src/summarizers/summarizer.js';
import { countTokens } from '../../src/lib/tokens.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import {
  type Api,
  V1,
  addMessage,
  createDialogue,
  getDialogue,
  useProjectApi,
  walk,
} from '../helpers/dialogues.js';

// D56: summaries as a resource, made by compaction's summarizer path (D22).

interface SummaryBody {
  id: string;
  dialogueId: string;
  projectId: string;
  status: string;
  namespace: string | null;
  content: string | null;
  contentTokenCount: number | null;
  provider: string;
  model: string;
  template: null;
  fromCreated: string | null;
  toCreated: string | null;
  messageCount: number;
  summarizedCount: number;
  skippedCount: number;
  error: string | null;
  metadata: Record<string, unknown>;
  tags: string[];
  created: string;
  modified: string;
}

const FIELDS = [
  'id',
  'dialogueId',
  'projectId',
  'status',
  'namespace',
  'content',
  'contentTokenCount',
  'provider',
  'model',
  'template',
  'fromCreated',
  'toCreated',
  'messageCount',
  'summarizedCount',
  'skippedCount',
  'error',
  'metadata',
  'tags',
  'created',
  'modified',
].sort();

const summarize = (api: Api, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api({ method: 'POST', url: `${V1}/summary`, payload, headers });

async function summarized(api: Api, payload: Record<string, unknown>, status = 201): Promise<SummaryBody> {
  const response = await summarize(api, payload);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as SummaryBody;
}

const listOf = async (api: Api, dialogueId: string) =>
  walk<SummaryBody>(api, `${V1}/summary?dialogueId=${dialogueId}`);

describe('summaries with the built-in summarizer', () => {
  const state = useProjectApi();

  it('summarizes a whole dialogue: 201, every field, stored, and made the dialogue summary', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api, {
      namespace: 'user-7',
      messages: [
        {
          role: 'user',
          content: 'My order 1234 arrived broken, the glass is cracked.',
          created: '2026-01-02T10:00:00Z',
        },
        {
          role: 'assistant',
          content: 'Sorry! A replacement ships on Monday.',
          created: '2026-01-02T10:01:00Z',
        },
      ],
    });
    const summary = await summarized(api, { dialogueId: dialogue.id, namespace: 'user-7' });
    expect(Object.keys(summary).sort()).toEqual(FIELDS);
    expect(summary).toMatchObject({
      dialogueId: dialogue.id,
      status: 'completed',
      namespace: 'user-7',
      provider: 'parley',
      model: EXTRACTIVE_MODEL,
      template: null,
      fromCreated: '2026-01-02T10:00:00.000Z',
      toCreated: '2026-01-02T10:01:00.000Z',
      messageCount: 2,
      summarizedCount: 2,
      skippedCount: 0,
      error: null,
      metadata: {},
      tags: [],
    });
    expect(summary.id).toMatch(/^sum_/);
    expect(summary.content).toContain('1234');
    expect(summary.contentTokenCount).toBe(countTokens(summary.content!));
    expect(summary.modified).toBe(summary.created);

    const stored = await api({ method: 'GET', url: `${V1}/summary/${summary.id}` });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual(summary);
    const after = await getDialogue(api, dialogue.id);
    expect((after.summary as { text: string }).text).toBe(summary.content);
  });

  it('answers a dialogue without messages with 201, completed, content null and counts 0', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api);
    const summary = await summarized(api, { dialogueId: dialogue.id });
    expect(summary).toMatchObject({
      status: 'completed',
      content: null,
      contentTokenCount: null,
      messageCount: 0,
      summarizedCount: 0,
      skippedCount: 0,
      fromCreated: null,
      toCreated: null,
    });
    // Kept in the history; nothing to put on the dialogue.
    expect((await listOf(api, dialogue.id)).map((s) => s.id)).toEqual([summary.id]);
    expect((await getDialogue(api, dialogue.id)).summary).toBeNull();
  });

  it('keeps tags and metadata given with the request', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'Hello there.' }] });
    const summary = await summarized(api, {
      dialogueId: dialogue.id,
      tags: ['weekly'],
      metadata: { reason: 'handover' },
    });
    expect(summary.tags).toEqual(['weekly']);
    expect(summary.metadata).toEqual({ reason: 'handover' });
  });

  it('keeps a record of each summary compact stores, so there is one history', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api, {
      messages: [{ role: 'user', content: 'The meeting moved to Thursday at noon.' }],
    });
    const compacted = await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact` });
    expect(compacted.statusCode).toBe(200);
    const [record] = await listOf(api, dialogue.id);
    expect(record!.content).toBe(compacted.json().summary.text);
    expect(record!.messageCount).toBe(1);
    // Nothing new: compact stores nothing, so the history does not grow.
    await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact` });
    expect(await listOf(api, dialogue.id)).toHaveLength(1);
  });

  it('refuses any template with 400 INVALID_PARAMETER naming it, and stores nothing', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'Hi.' }] });
    for (const template of ['default', null, { name: 'x' }]) {
      const error = expectError(
        await summarize(api, { dialogueId: dialogue.id, template }),
        400,
        'INVALID_PARAMETER',
      );
      expect(error.details![0]!.field).toBe('template');
    }
    expect(await listOf(api, dialogue.id)).toEqual([]);
    expect((await getDialogue(api, dialogue.id)).summary).toBeNull();
  });

  it('refuses bad input with the envelope and changes nothing', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'Hi.' }] });
    expectError(await summarize(api, {}), 400, 'MISSING_PARAMETER');
    const badId = expectError(
      await summarize(api, { dialogueId: dialogue.id, id: 'no spaces' }),
      400,
      'INVALID_INPUT',
    );
    expect(badId.details![0]!.field).toBe('id');
    const unknown = expectError(
      await summarize(api, { dialogueId: dialogue.id, style: 'short' }),
      400,
      'INVALID_INPUT',
    );
    expect(unknown.details![0]!.field).toBe('style');
    expectError(
      await api({ method: 'GET', url: `${V1}/summary?dialogueId=${dialogue.id}&next=nonsense` }),
      400,
      'INVALID_PARAMETER',
    );
    expectError(await api({ method: 'GET', url: `${V1}/summary` }), 400, 'MISSING_PARAMETER');
    // Summaries never change: no update or deletion route (D84).
    expectError(await api({ method: 'DELETE', url: `${V1}/summary/sum_x` }), 405, 'METHOD_NOT_ALLOWED');
    expect(await listOf(api, dialogue.id)).toEqual([]);
  });

  it('answers 404 for an unknown dialogue, summary or message', async () => {
    const { api } = state;
    expectError(await summarize(api, { dialogueId: 'dlg_missing' }), 404, 'DIALOGUE_NOT_FOUND');
    const missing = expectError(
      await api({ method: 'GET', url: `${V1}/summary/sum_missing` }),
      404,
      'SUMMARY_NOT_FOUND',
    );
    expect(missing.type).toBe('not_found');
    expectError(
      await api({ method: 'GET', url: `${V1}/summary?dialogueId=dlg_missing` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    const dialogue = await createDialogue(api, { messages: [{ id: 'a', role: 'user', content: 'Hi.' }] });
    for (const range of [{ startId: 'nope' }, { endId: 'nope' }, { startId: 'a', endId: 'nope' }]) {
      expectError(await summarize(api, { dialogueId: dialogue.id, ...range }), 404, 'MESSAGE_NOT_FOUND');
    }
    expect(await listOf(api, dialogue.id)).toEqual([]);
  });

  it('follows the namespace rule of D53 on every summary route', async () => {
    const { api } = state;
    const dialogue = await createDialogue(api, {
      namespace: 'tenant-a',
      messages: [{ role: 'user', content: 'Namespaced words.' }],
    });
    // Left out: allowed. Given and different: the dialogue is not found.
    const summary = await summarized(api, { dialogueId: dialogue.id });
    expectError(
      await summarize(api, { dialogueId: dialogue.id, namespace: 'tenant-b' }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expectError(
      await api({ method: 'GET', url: `${V1}/summary/${summary.id}?namespace=tenant-b` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expectError(
      await api({ method: 'GET', url: `${V1}/summary?dialogueId=${dialogue.id}&namespace=tenant-b` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    const scoped = await api({ method: 'GET', url: `${V1}/summary/${summary.id}?namespace=tenant-a` });
    expect(scoped.json()).toEqual(summary);
    const listed = await api({
      method: 'GET',
      url: `${V1}/summary?dialogueId=${dialogue.id}&namespace=tenant-a`,
    });
    expect(listed.json().items).toEqual([summary]);
    expect(await listOf(api, dialogue.id)).toHaveLength(1);
  });

  it('is a documented operation of the OpenAPI document', async () => {
    const { ctx } = state;
    const response = await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    const document = response.json() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.paths['/api/v1/summary']!.post!.operationId).toBe('createSummary');
    expect(Object.keys(document.paths['/api/v1/summary']!.post!.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '404', '409']),
    );
    expect(document.paths['/api/v1/summary']!.get!.operationId).toBe('listSummaries');
    expect(document.paths['/api/v1/summary/{id}']!.get!.operationId).toBe('getSummary');
    expect(document.components.schemas).toHaveProperty('Summary');
  });
});

/** Joins the previous summary and the texts it is given; records each call; can be told to fail. */
function scriptedSummarizer() {
  const calls: SummaryInput[] = [];
  const summarizer: Summarizer & { calls: SummaryInput[]; fail?: AppError } = {
    provider: 'test',
    model: 'echo-1',
    maxSummaryTokens: 1000,
    calls,
    async summarize(input) {
      calls.push(input);
      if (summarizer.fail) throw summarizer.fail;
      return [
        ...(input.previous === null ? [] : [input.previous]),
        ...input.messages.map((m) => m.text),
      ].join(' | ');
    },
  };
  return summarizer;
}

describe('summaries with a scripted summarizer', () => {
  const summarizer = scriptedSummarizer();
  let context: TestContext;
  let api: Api;

  beforeAll(async () => {
    context = await createTestContext({}, { summarizer });
    api = asProject(context.app, await createProject(context.app));
  });
  afterAll(() => context.close());
  beforeEach(() => {
    summarizer.calls.length = 0;
    summarizer.fail = undefined;
  });

  it('builds on the previous summary and stores a new record on every call', async () => {
    const dialogue = await createDialogue(api, {
      messages: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
      ],
    });
    const first = await summarized(api, { dialogueId: dialogue.id });
    expect(first.content).toBe('one | two');
    await addMessage(api, dialogue.id, { role: 'user', content: 'three' });
    const second = await summarized(api, { dialogueId: dialogue.id });
    // Incremental: the previous summary and only the newer message.
    expect(summarizer.calls[1]).toMatchObject({ previous: 'one | two', messages: [{ text: 'three' }] });
    expect(second).toMatchObject({ content: 'one | two | three', messageCount: 3, summarizedCount: 3 });
    // Nothing new: no model call, and still a new record holding the same summary.
    const third = await summarized(api, { dialogueId: dialogue.id });
    expect(summarizer.calls).toHaveLength(2);
    expect(third.id).not.toBe(second.id);
    expect(third).toMatchObject({ content: second.content, messageCount: 3 });
    expect((await getDialogue(api, dialogue.id)).summary).toMatchObject({
      text: second.content,
      messageCount: 3,
    });
    // Newest first.
    expect((await listOf(api, dialogue.id)).map((s) => s.id)).toEqual([third.id, second.id, first.id]);
  });

  it('counts messages without text as skipped', async () => {
    const dialogue = await createDialogue(api, {
      messages: [
        { role: 'user', content: 'words' },
        { role: 'assistant', content: { count: 3 } },
      ],
    });
    const summary = await summarized(api, { dialogueId: dialogue.id });
    expect(summary).toMatchObject({ messageCount: 2, summarizedCount: 1, skippedCount: 1, content: 'words' });
  });

  it('summarizes the messages from startId to endId, inclusive, in dialogue order', async () => {
    const at = (minute: number) => `2026-03-01T09:0${minute}:00.000Z`;
    const dialogue = await createDialogue(api, {
      messages: [
        { id: 'a', role: 'user', content: 'alpha', created: at(1) },
        { id: 'c', role: 'user', content: 'gamma', created: at(3) },
        // Stored after `c`, but earlier in the dialogue's order (D29).
        { id: 'b', role: 'assistant', content: 'beta', created: at(2) },
        { id: 'd', role: 'assistant', content: 'delta', created: at(4) },
      ],
    });
    const middle = await summarized(api, { dialogueId: dialogue.id, startId: 'b', endId: 'c' });
    expect(middle).toMatchObject({
      content: 'beta | gamma',
      messageCount: 2,
      summarizedCount: 2,
      skippedCount: 0,
      fromCreated: at(2),
      toCreated: at(3),
    });
    // A range is summarized from scratch, not on top of the previous summary.
    expect(summarizer.calls.at(-1)!.previous).toBeNull();
    expect((await getDialogue(api, dialogue.id)).summary).toMatchObject({
      text: 'beta | gamma',
      messageCount: 2,
    });
    expect((await summarized(api, { dialogueId: dialogue.id, startId: 'c' })).content).toBe('gamma | delta');
    expect((await summarized(api, { dialogueId: dialogue.id, endId: 'b' })).content).toBe('alpha | beta');
    const single = await summarized(api, { dialogueId: dialogue.id, startId: 'd', endId: 'd' });
    expect(single).toMatchObject({ content: 'delta', messageCount: 1 });
    // After a range, a whole-dialogue summary covers everything again.
    expect((await summarized(api, { dialogueId: dialogue.id })).content).toBe('alpha | beta | gamma | delta');

    const reversed = expectError(
      await summarize(api, { dialogueId: dialogue.id, startId: 'c', endId: 'b' }),
      400,
      'INVALID_PARAMETER',
    );
    expect(reversed.details![0]!.field).toBe('startId');
  });

  it('makes a client-given id idempotent: a repeat answers 200 with the stored summary, summarizing nothing', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'remember me' }] });
    const first = await summarize(api, { dialogueId: dialogue.id, id: 'weekly:2026-03.1' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ id: 'weekly:2026-03.1', content: 'remember me' });
    await addMessage(api, dialogue.id, { role: 'user', content: 'more' });
    const repeat = await summarize(api, { dialogueId: dialogue.id, id: 'weekly:2026-03.1' });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(first.json());
    expect(summarizer.calls).toHaveLength(1);
    expect(await listOf(api, dialogue.id)).toHaveLength(1);

    // The id is taken in the project: another dialogue cannot use it.
    const other = await createDialogue(api, { messages: [{ role: 'user', content: 'other' }] });
    const taken = expectError(
      await summarize(api, { dialogueId: other.id, id: 'weekly:2026-03.1' }),
      409,
      'DUPLICATE_ID',
    );
    expect(taken.details![0]!.field).toBe('id');
    expect(await listOf(api, other.id)).toEqual([]);
  });

  it('stores one summary when two requests with one client id race', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'race' }] });
    const [a, b] = await Promise.all([
      summarize(api, { dialogueId: dialogue.id, id: 'raced' }),
      summarize(api, { dialogueId: dialogue.id, id: 'raced' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json()).toEqual(b.json());
    expect(await listOf(api, dialogue.id)).toHaveLength(1);
  });

  it('replays an Idempotency-Key without calling the summarizer', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'keyed' }] });
    const headers = { 'idempotency-key': `summary-${dialogue.id}` };
    const first = await summarize(api, { dialogueId: dialogue.id }, headers);
    await addMessage(api, dialogue.id, { role: 'user', content: 'later' });
    const retry = await summarize(api, { dialogueId: dialogue.id }, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(summarizer.calls).toHaveLength(1);
    expect(await listOf(api, dialogue.id)).toHaveLength(1);
  });

  it('answers a failing model with 201 status failed and error, storing nothing on the dialogue', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'first words' }] });
    const good = await summarized(api, { dialogueId: dialogue.id });
    const before = await getDialogue(api, dialogue.id);
    await addMessage(api, dialogue.id, { role: 'user', content: 'new words' });
    summarizer.fail = new AppError('UPSTREAM_TIMEOUT', 'The summary model echo-1 did not answer in time');
    const failed = await summarized(api, { dialogueId: dialogue.id });
    expect(failed).toMatchObject({
      status: 'failed',
      content: null,
      error: 'The summary model echo-1 did not answer in time',
      summarizedCount: 0,
    });
    summarizer.fail = new AppError('UPSTREAM_ERROR', 'The summary model echo-1 failed with HTTP 500');
    expect((await summarized(api, { dialogueId: dialogue.id, startId: before.messages[0]!.id })).status).toBe(
      'failed',
    );
    const after = await getDialogue(api, dialogue.id);
    expect(after.summary).toEqual(before.summary);
    expect((after.summary as { text: string }).text).toBe(good.content);
    // The failures are kept in the history, and readable.
    expect((await api({ method: 'GET', url: `${V1}/summary/${failed.id}` })).json()).toEqual(failed);
    expect((await listOf(api, dialogue.id)).map((s) => s.status)).toEqual(['failed', 'failed', 'completed']);
  });

  it('pages through the list with cursors, newest or oldest first', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'page' }] });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await summarized(api, { dialogueId: dialogue.id })).id);
    const newest = await walk<SummaryBody>(api, `${V1}/summary?dialogueId=${dialogue.id}&limit=2`);
    expect(newest.map((s) => s.id)).toEqual([...made].reverse());
    const oldest = await walk<SummaryBody>(api, `${V1}/summary?dialogueId=${dialogue.id}&limit=2&order=asc`);
    expect(oldest.map((s) => s.id)).toEqual(made);
    const page = await api({ method: 'GET', url: `${V1}/summary?dialogueId=${dialogue.id}&limit=5` });
    expect(page.json().next).toBeNull();
  });

  it('counts as a write for the plan quota (D44); a repeated id does not', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const project = await createProject(context.app);
    const own = asProject(context.app, project);
    const dialogue = await createDialogue(own, { messages: [{ role: 'user', content: 'quota' }] });
    const writes = async () =>
      (
        await context.app.inject({
          method: 'GET',
          url: `/admin/v1/projects/${project.projectId}/usage`,
          headers: admin,
        })
      ).json().writes as number;
    const before = await writes();
    await summarized(own, { dialogueId: dialogue.id, id: 'counted' });
    expect(await writes()).toBe(before + 1);
    await summarized(own, { dialogueId: dialogue.id, id: 'counted' }, 200);
    expect(await writes()).toBe(before + 1);
  });
});
