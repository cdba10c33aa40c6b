import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { type ClaimedJob, loadTexts } from '../../src/modules/embeddings/repository.js';
import { EXTRACTIVE_MODEL } from '../../src/summarizers/extractive.js';
import type { Summarizer } from '../../src/summarizers/summarizer.js';
import { countTokens } from '../../src/lib/tokens.js';
import { type FixtureMessage, loadConversation, longConversation } from '../fixtures/conversations.js';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
  stubEmbedder,
} from '../helpers/app.js';
import {
  type Api,
  type DialogueBody,
  V1,
  addMessage,
  createDialogue,
  getDialogue,
  walk,
} from '../helpers/dialogues.js';
import { type FakeOpenAi, modelEnv, startFakeOpenAi } from '../helpers/fake-openai.js';

// D21, D22: compact and continue, offline (extractive) and through an OpenAI-compatible model.

interface Summary {
  text: string;
  model: string;
  messageCount: number;
  upToMessageId: string | null;
  created: string;
}
type Compacted = DialogueBody & { summary: Summary | null };

const toBody = (m: FixtureMessage) => ({
  role: m.role,
  content: m.content,
  ...(m.name ? { name: m.name } : {}),
});

/** A dialogue holding `messages`, created through the API (25 at creation, then batches of 100). */
async function dialogueWith(api: Api, messages: FixtureMessage[], extra: Record<string, unknown> = {}) {
  const dialogue = await createDialogue(api, { ...extra, messages: messages.slice(0, 25).map(toBody) });
  for (let start = 25; start < messages.length; start += 100) {
    const response = await api({
      method: 'POST',
      url: `${V1}/messages`,
      payload: {
        dialogueId: dialogue.id,
        ...(extra.namespace ? { namespace: extra.namespace } : {}),
        messages: messages.slice(start, start + 100).map(toBody),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  return dialogue;
}

const act = (api: Api, id: string, action: 'compact' | 'continue', headers: Record<string, string> = {}) =>
  api({ method: 'PUT', url: `${V1}/dialogue/${id}/${action}`, headers });

async function compact(api: Api, id: string): Promise<Compacted> {
  const response = await act(api, id, 'compact');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Compacted;
}

describe('compact and continue, offline', () => {
  let context: TestContext;
  let api: Api;

  beforeAll(async () => {
    // An embedder (without its worker), so that storing a summary queues the dialogue's job (D79).
    context = await createTestContext(
      { SUMMARY_MAX_TOKENS: '300', EMBEDDING_WORKER: 'false' },
      { embedder: stubEmbedder() },
    );
    api = asProject(context.app, await createProject(context.app));
  });
  afterAll(async () => {
    await context.close();
  });

  it('compacts a 500-message dialogue within the budget, keeping every message', async () => {
    const conversation = longConversation(500);
    const dialogue = await dialogueWith(api, conversation, { tags: ['ops'] });
    const before = await walk<{ id: string; content: unknown }>(
      api,
      `${V1}/messages?dialogueId=${dialogue.id}&limit=200`,
    );
    expect(before).toHaveLength(500);

    const compacted = await compact(api, dialogue.id);
    expect(compacted.id).toBe(dialogue.id);
    expect(compacted.totalMessages).toBe(500);
    const summary = compacted.summary!;
    expect(summary.model).toBe(EXTRACTIVE_MODEL);
    expect(summary.messageCount).toBe(500);
    expect(summary.upToMessageId).toBe(before.at(-1)!.id);
    expect(Date.parse(summary.created)).not.toBeNaN();
    expect(countTokens(summary.text)).toBeLessThanOrEqual(300);
    expect(countTokens(summary.text)).toBeGreaterThan(200);
    // Extracted word for word: every line names a speaker and quotes the conversation.
    for (const line of summary.text.split('\n')) {
      const [, speaker, quoted] = /^([^:]+): (.+)$/.exec(line)!;
      expect(
        conversation.some(
          (m) =>
            (m.name ? `${m.name} (${m.role})` : m.role) === speaker &&
            quoted!.split(' … ').every((piece) => m.content.includes(piece)),
        ),
        line,
      ).toBe(true);
    }
    // The messages are all still there, unchanged.
    const after = await walk<{ id: string; content: unknown }>(
      api,
      `${V1}/messages?dialogueId=${dialogue.id}&limit=200`,
    );
    expect(after).toEqual(before);
    // The record keeps the summary.
    expect((await getDialogue(api, dialogue.id)).summary).toEqual(summary);
  });

  it('makes the summary part of the searchable text of the dialogue', async () => {
    const dialogue = await dialogueWith(api, loadConversation('support-refund').messages, {
      tags: ['support'],
    });
    const { summary } = await compact(api, dialogue.id);
    const [row] = rowsOf<{ search_text: string; matches: boolean }>(
      await context.app.db.execute(
        sql`select search_text, search_vector @@ plainto_tsquery('english', 'R-88213') as matches
            from dialogues where id = ${dialogue.id}`,
      ),
    );
    expect(row!.search_text).toContain('support');
    expect(row!.search_text).toContain(summary!.text);
    expect(row!.matches).toBe(true);
    // D40: the dialogue's embedding is made again from the new text, which holds the summary once.
    const jobs = rowsOf<ClaimedJob & { object_id: string }>(
      await context.app.db.execute(
        sql`select project_id as "projectId", id, object_type as "objectType", dialogue_id as "dialogueId",
              object_id as "objectId", attempts, created::text as enqueued, object_id
            from embedding_jobs where object_type = 'dialogue' and object_id = ${dialogue.id}`,
      ),
    );
    expect(jobs).toHaveLength(1);
    const texts = await loadTexts(context.app.db, jobs);
    const embedded = texts.get(jobs[0]!.id)!.text;
    expect(embedded.split(summary!.text)).toHaveLength(2);
    expect(embedded).toContain('support');
  });

  it('answers an up-to-date dialogue without a new summary, and an empty one without any', async () => {
    const dialogue = await dialogueWith(api, loadConversation('trip-planning').messages);
    const first = await compact(api, dialogue.id);
    const again = await compact(api, dialogue.id);
    expect(again.summary).toEqual(first.summary);

    const empty = await createDialogue(api, {});
    const compacted = await compact(api, empty.id);
    expect(compacted.summary).toBeNull();
    expect(compacted.totalMessages).toBe(0);
  });

  it('compacts an ended dialogue, and a dialogue of an immutable project', async () => {
    const dialogue = await dialogueWith(api, loadConversation('debugging-postgres').messages);
    expect((await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/end` })).statusCode).toBe(200);
    const compacted = await compact(api, dialogue.id);
    expect(compacted.status).toBe('ended');
    expect(compacted.summary!.messageCount).toBe(dialogue.totalMessages);

    const immutable = asProject(context.app, await createProject(context.app, { immutableDialogues: true }));
    const frozen = await createDialogue(immutable, {
      messages: loadConversation('trip-planning').messages.slice(0, 20).map(toBody),
    });
    expect((await compact(immutable, frozen.id)).summary!.messageCount).toBe(20);
  });

  it('continues a dialogue in a new one that starts with the summary', async () => {
    const dialogue = await dialogueWith(api, longConversation(500), {
      namespace: 'user-42',
      tags: ['ops', 'oncall'],
    });
    const response = await act(api, dialogue.id, 'continue');
    expect(response.statusCode, response.body).toBe(201);
    const next = response.json() as Compacted;
    expect(next.id).not.toBe(dialogue.id);
    expect(next.status).toBe('active');
    expect(next.namespace).toBe('user-42');
    expect(next.tags).toEqual(['ops', 'oncall']);
    expect(next.metadata).toEqual({ continuedFrom: dialogue.id });
    expect(next.totalMessages).toBe(1);

    const old = (await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}` })).json() as Compacted;
    expect(old.status).toBe('ended');
    expect(old.summary!.messageCount).toBe(500);
    expect(countTokens(old.summary!.text)).toBeLessThanOrEqual(300);

    const [first] = next.messages;
    expect(first!.role).toBe('system');
    expect(first!.content).toBe(old.summary!.text);
    expect(first!.metadata).toEqual({
      summaryOf: dialogue.id,
      model: EXTRACTIVE_MODEL,
      upToMessageId: old.summary!.upToMessageId,
    });
    // The old dialogue accepts no more messages; the new one does.
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: dialogue.id, namespace: 'user-42', role: 'user', content: 'x' },
      }),
      409,
      'DIALOGUE_ENDED',
    );
    await addMessage(api, next.id, { namespace: 'user-42', role: 'user', content: 'Where were we?' });
  });

  it('honours an Idempotency-Key: a retry returns the same continuation without making another', async () => {
    const dialogue = await dialogueWith(api, loadConversation('trip-planning').messages, { tags: ['trip'] });
    const headers = { 'idempotency-key': `continue-${dialogue.id}` };
    const first = await act(api, dialogue.id, 'continue', headers);
    const second = await act(api, dialogue.id, 'continue', headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const continued = await walk<{ metadata: { continuedFrom?: string } }>(api, `${V1}/dialogue?limit=100`);
    expect(continued.filter((d) => d.metadata.continuedFrom === dialogue.id)).toHaveLength(1);
  });

  it('continues an empty dialogue with an empty one', async () => {
    const empty = await createDialogue(api, { tags: ['blank'] });
    const response = await act(api, empty.id, 'continue');
    expect(response.statusCode, response.body).toBe(201);
    const next = response.json() as Compacted;
    expect(next.messages).toEqual([]);
    expect(next.metadata).toEqual({ continuedFrom: empty.id });
    expect((await getDialogue(api, empty.id)).status).toBe('ended');
  });

  it('answers 404 for a missing or foreign dialogue, with PUT and POST', async () => {
    const foreign = await createDialogue(asProject(context.app, await createProject(context.app)), {
      messages: [{ role: 'user', content: 'private words here' }],
    });
    for (const id of ['dlg_missing', foreign.id]) {
      for (const action of ['compact', 'continue'] as const) {
        for (const method of ['PUT', 'POST'] as const) {
          expectError(
            await api({ method, url: `${V1}/dialogue/${id}/${action}` }),
            404,
            'DIALOGUE_NOT_FOUND',
          );
        }
      }
    }
    expect((await api({ method: 'POST', url: `${V1}/dialogue/${foreign.id}/compact` })).statusCode).toBe(404);
  });
});

describe('a keyed retry of compact or continue', () => {
  // A model call costs money and time: a retry of a request that succeeded is answered from the
  // stored response (D36) before the summarizer is called, not after.
  let summaries = 0;
  const counting: Summarizer = {
    provider: 'test',
    model: 'counting-test',
    maxSummaryTokens: 200,
    async summarize({ messages }) {
      summaries++;
      return `Summary ${summaries}: ${messages.length} messages.`;
    },
  };
  let context: TestContext;
  let api: Api;

  beforeAll(async () => {
    context = await createTestContext({}, { summarizer: counting });
    api = asProject(context.app, await createProject(context.app));
  });
  afterAll(async () => {
    await context.close();
  });

  const post = (id: string, action: 'compact' | 'continue', key: string) =>
    api({ method: 'POST', url: `${V1}/dialogue/${id}/${action}`, headers: { 'idempotency-key': key } });
  const conversation = {
    messages: [
      { role: 'user', content: 'Can I change my flight to Friday?' },
      { role: 'assistant', content: 'Yes, for a fee of 30 euros.' },
    ],
  };

  it('replays compact without calling the summarizer, though messages came since', async () => {
    const dialogue = await createDialogue(api, conversation);
    const first = await post(dialogue.id, 'compact', `compact-${dialogue.id}`);
    expect(first.statusCode, first.body).toBe(200);
    const before = summaries;
    expect(before).toBeGreaterThan(0);
    // The conversation went on before the client retried (its first answer was lost on the way).
    await addMessage(api, dialogue.id, { role: 'user', content: 'Then please do it.' });

    const retry = await post(dialogue.id, 'compact', `compact-${dialogue.id}`);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(summaries).toBe(before);
  });

  it('replays continue without calling the summarizer, though the dialogue changed since', async () => {
    const dialogue = await createDialogue(api, conversation);
    const first = await post(dialogue.id, 'continue', `continue-${dialogue.id}`);
    expect(first.statusCode, first.body).toBe(201);
    const before = summaries;
    expect(before).toBeGreaterThan(0);
    // The last message the summary covers is deleted: a new summary would read every message again.
    const { summary } = (await getDialogue(api, dialogue.id)) as Compacted;
    const deleted = await api({
      method: 'DELETE',
      url: `${V1}/message/${summary!.upToMessageId}?dialogueId=${dialogue.id}`,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const retry = await post(dialogue.id, 'continue', `continue-${dialogue.id}`);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(summaries).toBe(before);
  });

  it('refuses a key already used for another request before calling the summarizer', async () => {
    const one = await createDialogue(api, conversation);
    const other = await createDialogue(api, conversation);
    const key = `compact-shared-${one.id}`;
    expect((await post(one.id, 'compact', key)).statusCode).toBe(200);
    const before = summaries;
    expectError(await post(other.id, 'compact', key), 409, 'RESOURCE_CONFLICT');
    expect(summaries).toBe(before);
  });
});

describe('compact and continue with an OpenAI-compatible model', () => {
  let fake: FakeOpenAi;
  let context: TestContext;
  let api: Api;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    context = await createTestContext({
      ...modelEnv(fake),
      SUMMARY_MAX_TOKENS: '200',
      SUMMARY_CALL_TOKENS: '2048',
      SUMMARY_TIMEOUT_MS: '400',
      SUMMARY_RETRIES: '0',
    });
    api = asProject(context.app, await createProject(context.app));
  });
  afterAll(async () => {
    await context.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const newMessagesOf = (i: number) =>
    /<new_messages>\n([\s\S]*?)\n<\/new_messages>/
      .exec(fake.requests[i]!.body.messages[1]!.content)![1]!
      .split('\n');
  const summarySoFarOf = (i: number) =>
    /<summary_so_far>\n([\s\S]*?)\n<\/summary_so_far>/.exec(fake.requests[i]!.body.messages[1]!.content)![1]!;

  it('summarizes a long dialogue in chunks and records the model name', async () => {
    const dialogue = await dialogueWith(api, longConversation(300));
    const { summary } = await compact(api, dialogue.id);
    expect(summary!.model).toBe('gpt-test-mini');
    expect(summary!.messageCount).toBe(300);
    expect(summary!.text).toBe(fake.answers.at(-1));
    expect(fake.requests.length).toBeGreaterThan(3);
    expect(fake.requests.flatMap((_, i) => newMessagesOf(i))).toHaveLength(300);
    for (const request of fake.requests) expect(request.body.model).toBe('gpt-test-mini');
  });

  it('compacts incrementally: the previous summary plus only the newer messages', async () => {
    const conversation = loadConversation('support-refund').messages;
    const dialogue = await dialogueWith(api, conversation.slice(0, 20));
    const first = (await compact(api, dialogue.id)).summary!;
    expect(fake.requests).toHaveLength(1);

    const added = [];
    for (const message of conversation.slice(20))
      added.push(await addMessage(api, dialogue.id, toBody(message)));
    const second = (await compact(api, dialogue.id)).summary!;
    expect(fake.requests).toHaveLength(2);
    expect(summarySoFarOf(1)).toBe(first.text);
    expect(newMessagesOf(1)).toHaveLength(conversation.length - 20);
    expect(newMessagesOf(1)[0]).toContain(conversation[20]!.content);
    expect(second.messageCount).toBe(conversation.length);
    expect(second.upToMessageId).toBe(added.at(-1)!.id);

    // Nothing new: no call at all.
    expect((await compact(api, dialogue.id)).summary).toEqual(second);
    expect(fake.requests).toHaveLength(2);
  });

  it('stores nothing when the model fails (502) or times out (504)', async () => {
    const dialogue = await dialogueWith(api, loadConversation('trip-planning').messages);
    fake.plan.push({ kind: 'fail', status: 500 });
    const failed = expectError(await act(api, dialogue.id, 'compact'), 502, 'UPSTREAM_ERROR');
    expect(failed.message).toBe('The summary model gpt-test-mini failed with HTTP 500');
    expect(failed.type).toBe('server_error');
    fake.plan.push({ kind: 'hang' });
    expectError(await act(api, dialogue.id, 'compact'), 504, 'UPSTREAM_TIMEOUT');
    const unchanged = await getDialogue(api, dialogue.id);
    expect(unchanged.summary).toBeNull();
    expect(unchanged.modified).toBe(dialogue.modified);

    // continue changes nothing either: the old dialogue stays active, no new dialogue appears.
    fake.plan.push({ kind: 'fail', status: 503 });
    expectError(await act(api, dialogue.id, 'continue'), 502, 'UPSTREAM_ERROR');
    expect((await getDialogue(api, dialogue.id)).status).toBe('active');
    const all = await walk<{ metadata: { continuedFrom?: string } }>(api, `${V1}/dialogue?limit=100`);
    expect(all.filter((d) => d.metadata.continuedFrom === dialogue.id)).toHaveLength(0);
  });

  it('leaves one consistent summary when two compactions run at once', async () => {
    const dialogue = await dialogueWith(api, loadConversation('debugging-postgres').messages);
    // Both requests read the dialogue before either summary is stored.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = 0;
    const hold = async () => {
      waiting += 1;
      if (waiting === 2) release();
      await gate;
    };
    fake.plan.push({ kind: 'summarize', before: hold }, { kind: 'summarize', before: hold });
    const [a, b] = await Promise.all([act(api, dialogue.id, 'compact'), act(api, dialogue.id, 'compact')]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(fake.requests).toHaveLength(2);
    const stored = (await getDialogue(api, dialogue.id)).summary as Summary;
    // The loser found the winner's summary covering everything and returned it.
    expect((a.json() as Compacted).summary).toEqual(stored);
    expect((b.json() as Compacted).summary).toEqual(stored);
    expect(stored.messageCount).toBe(dialogue.totalMessages);
    expect(fake.answers).toContain(stored.text);
  });

  it('continue takes in a message that arrives while the model is writing', async () => {
    const conversation = loadConversation('trip-planning').messages;
    const dialogue = await dialogueWith(api, conversation);
    let late: { id: string } | undefined;
    fake.plan.push({
      kind: 'summarize',
      before: async () => {
        late = await addMessage(api, dialogue.id, {
          role: 'user',
          content: 'Also: Maria is allergic to walnuts.',
        });
      },
    });
    const response = await act(api, dialogue.id, 'continue');
    expect(response.statusCode, response.body).toBe(201);
    // The first summary missed the late message: the second round added it to that summary.
    expect(fake.requests).toHaveLength(2);
    expect(summarySoFarOf(1)).toBe(fake.answers[0]);
    expect(newMessagesOf(1)).toEqual(['user: Also: Maria is allergic to walnuts.']);
    const old = await getDialogue(api, dialogue.id);
    expect(old.status).toBe('ended');
    expect((old.summary as Summary).upToMessageId).toBe(late!.id);
    expect((old.summary as Summary).messageCount).toBe(conversation.length + 1);
    const next = response.json() as Compacted;
    expect(next.messages[0]!.content).toBe((old.summary as Summary).text);
  });

  it('gives up with 409 RESOURCE_CONFLICT when messages keep arriving during every round', async () => {
    const dialogue = await dialogueWith(api, loadConversation('support-refund').messages.slice(0, 6));
    const interrupt = {
      kind: 'summarize' as const,
      before: () => addMessage(api, dialogue.id, { role: 'user', content: 'One more thing.' }),
    };
    fake.plan.push(interrupt, interrupt, interrupt, interrupt);
    const error = expectError(await act(api, dialogue.id, 'continue'), 409, 'RESOURCE_CONFLICT');
    expect(error.message).toBe(`Dialogue ${dialogue.id} kept changing while it was summarized; retry`);
    expect(fake.requests).toHaveLength(4);
    // Every round built on the one before: the model saw each new message once.
    expect(fake.requests.slice(1).map((_, i) => newMessagesOf(i + 1))).toEqual(
      Array.from({ length: 3 }, () => ['user: One more thing.']),
    );
    const old = await getDialogue(api, dialogue.id);
    expect(old.status).toBe('active');
    expect(old.summary).toBeNull();
  });
});
