import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTIVE_MODEL } from '../../src/summarizers/extractive.js';
import { countTokens } from '../../src/lib/tokens.js';
import { loadConversation } from '../fixtures/conversations.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type Api, createDialogue, getDialogue } from '../helpers/dialogues.js';
import { type FakeOpenAi, modelEnv, startFakeOpenAi } from '../helpers/fake-openai.js';
import { callError, callOk, connectMcp, listen } from '../helpers/mcp.js';

// D42: compact_dialogue calls the same compaction as REST (D22).

interface Dialogue {
  id: string;
  summary: { text: string; model: string; messageCount: number } | null;
}

const messages = loadConversation('debugging-postgres').messages.map(({ role, name, content }) => ({
  role,
  content,
  ...(name ? { name } : {}),
}));

let fake: FakeOpenAi;
const opened: { context: TestContext; client: Client }[] = [];

/** An app with its own configuration, a project, its REST driver and an MCP client. */
async function open(env: Record<string, string>): Promise<{ rest: Api; client: Client }> {
  const context = await createTestContext(env);
  const project = await createProject(context.app);
  const client = await connectMcp(await listen(context.app), project.apiKey);
  opened.push({ context, client });
  return { rest: asProject(context.app, project), client };
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  for (const { context, client } of opened) {
    await client.close();
    await context.close();
  }
  await fake.close();
});

describe('MCP compact_dialogue', () => {
  it('stores the summary that REST then reads, and is listed among the tools', async () => {
    const { rest, client } = await open({ SUMMARY_MAX_TOKENS: '120' });
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

    await callError(client, 'compact_dialogue', { dialogueId: 'dlg_missing' }, 'DIALOGUE_NOT_FOUND');
    await callError(client, 'compact_dialogue', {}, 'MISSING_PARAMETER');
  });

  it('returns a failing model as an UPSTREAM_ERROR tool error and stores nothing', async () => {
    const { rest, client } = await open({ ...modelEnv(fake), SUMMARY_RETRIES: '0' });
    const dialogue = await createDialogue(rest, { messages });
    fake.plan.push({ kind: 'fail', status: 500 });
    const error = await callError(client, 'compact_dialogue', { dialogueId: dialogue.id }, 'UPSTREAM_ERROR');
    expect(error.message).toBe('The summary model gpt-test-mini failed with HTTP 500');
    expect((await getDialogue(rest, dialogue.id)).summary).toBeNull();
  });
});
