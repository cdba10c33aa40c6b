import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTIVE_MODEL } from '../../src/summaries/extractive.js';
import { countTokens } from '../../src/summaries/tokens.js';
import { loadConversation } from '../fixtures/conversations.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type FakeOpenAi, startFakeOpenAi } from '../helpers/fake-openai.js';
import { V1, createDialogue, getDialogue } from '../helpers/dialogues.js';
import { callError, callOk, connectMcp, listen } from '../helpers/mcp.js';

// D42: compact_dialogue calls the same compaction as REST (D22).

interface Dialogue {
  id: string;
  totalMessages: number;
  summary: { text: string; model: string; messageCount: number; upToMessageId: string | null } | null;
}

const messages = loadConversation('debugging-postgres').messages.map(({ role, name, content }) => ({
  role,
  content,
  ...(name ? { name } : {}),
}));

describe('MCP compact_dialogue', () => {
  let context: TestContext;
  let client: Client;
  let rest: ReturnType<typeof asProject>;

  beforeAll(async () => {
    context = await createTestContext({ SUMMARY_MAX_TOKENS: '120' });
    const project = await createProject(context.app);
    rest = asProject(context.app, project);
    client = await connectMcp(await listen(context.app), project.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await context.close();
  });

  it('stores the summary that REST then reads, and is listed among the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'compact_dialogue')?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
    const dialogue = await createDialogue(rest, { messages });
    const compacted = await callOk<Dialogue>(client, 'compact_dialogue', { dialogueId: dialogue.id });
    expect(compacted.summary).toMatchObject({ model: EXTRACTIVE_MODEL, messageCount: messages.length });
    expect(countTokens(compacted.summary!.text)).toBeLessThanOrEqual(120);
    expect((await getDialogue(rest, dialogue.id)).summary).toEqual(compacted.summary);
  });

  it('answers a missing dialogue and a missing argument like REST', async () => {
    await callError(client, 'compact_dialogue', { dialogueId: 'dlg_missing' }, 'DIALOGUE_NOT_FOUND');
    await callError(client, 'compact_dialogue', {}, 'MISSING_PARAMETER');
  });
});

describe('MCP compact_dialogue with a failing model', () => {
  let fake: FakeOpenAi;
  let context: TestContext;
  let client: Client;
  let rest: ReturnType<typeof asProject>;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    context = await createTestContext({
      SUMMARY_MODEL: 'gpt-test-mini',
      OPENAI_API_KEY: fake.apiKey,
      OPENAI_BASE_URL: fake.baseURL,
      SUMMARY_RETRIES: '0',
    });
    const project = await createProject(context.app);
    rest = asProject(context.app, project);
    client = await connectMcp(await listen(context.app), project.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await context.close();
    await fake.close();
  });

  it('returns UPSTREAM_ERROR as a tool error and stores nothing', async () => {
    const dialogue = await createDialogue(rest, { messages });
    fake.plan.push({ kind: 'fail', status: 500 });
    const error = await callError(client, 'compact_dialogue', { dialogueId: dialogue.id }, 'UPSTREAM_ERROR');
    expect(error.message).toBe('The summary model gpt-test-mini failed with HTTP 500');
    expect((await rest({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}` })).json().summary).toBeNull();
  });
});
