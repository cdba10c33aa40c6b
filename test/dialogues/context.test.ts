import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/lib/tokens.js';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';
import { callError, callOk, connectMcp, listen } from '../helpers/mcp.js';

// D81: GET /dialogue/{id}/context and the MCP tool get_context.

interface Context {
  format: string;
  messages: { role: string; content: unknown; name?: string }[] | null;
  system: string | null;
  text: string | null;
  tokens: number;
  omittedMessages: number;
  fromMessageId: string | null;
}

let ctx: TestContext;
let api: Api;
let client: Client;
beforeAll(async () => {
  ctx = await createTestContext();
  const project = await createProject(ctx.app);
  api = asProject(ctx.app, project);
  client = await connectMcp(await listen(ctx.app), project.apiKey);
});
afterAll(async () => {
  await client.close();
  await ctx.close();
});

async function context(id: string, query = ''): Promise<Context> {
  const response = await api({ method: 'GET', url: `${V1}/dialogue/${id}/context${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Context;
}

/** What one message costs in the budget: its `role: text` line. */
const cost = (role: string, text: string) => countTokens(`${role}: ${text}`);

const turns = [
  { role: 'user', content: 'My parcel to Lisbon is three days late.' },
  { role: 'assistant', content: 'Sorry to hear that. What is the tracking number?' },
  { role: 'user', content: 'It is PT-88123, sent on Monday.' },
  { role: 'assistant', content: 'The courier lost it in Madrid; a new one leaves today.' },
];

describe('GET /dialogue/{id}/context', () => {
  it('gives every message, oldest first, as OpenAI chat messages when all fit', async () => {
    const dialogue = await createDialogue(api, { messages: turns });
    const answer = await context(dialogue.id);
    expect(answer).toMatchObject({ format: 'messages', system: null, text: null, omittedMessages: 0 });
    expect(answer.messages).toEqual(turns);
    expect(answer.fromMessageId).toBe(dialogue.messages[0]!.id);
    expect(answer.tokens).toBe(turns.reduce((sum, turn) => sum + cost(turn.role, turn.content), 0));
  });

  it('keeps the newest messages that fit, never cutting one, and reports what it left out', async () => {
    const dialogue = await createDialogue(api, { messages: turns });
    const lastTwo = cost('user', turns[2]!.content) + cost('assistant', turns[3]!.content);
    // One token short of the third newest message: exactly the last two fit.
    const budget = lastTwo + cost('assistant', turns[1]!.content) - 1;
    const answer = await context(dialogue.id, `?maxTokens=${budget}`);
    expect(answer.messages).toEqual(turns.slice(2));
    expect(answer.tokens).toBe(lastTwo);
    expect(answer.omittedMessages).toBe(2);
    expect(answer.fromMessageId).toBe(dialogue.messages[2]!.id);

    // A budget smaller than the newest message: nothing, rather than half a message.
    const none = await context(dialogue.id, '?maxTokens=3');
    expect(none).toMatchObject({ messages: [], tokens: 0, omittedMessages: 4, fromMessageId: null });
  });

  it('reads past its first page: every message of a dialogue longer than a page, in order', async () => {
    // The context reads 50 messages a round trip, newest first; 120 take three pages.
    const long = Array.from({ length: 120 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `turn ${i}`,
    }));
    const dialogue = await createDialogue(api);
    const ids: string[] = [];
    for (const batch of [long.slice(0, 60), long.slice(60)]) {
      const response = await api({
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: dialogue.id, messages: batch },
      });
      expect(response.statusCode, response.body).toBe(201);
      ids.push(...(response.json() as { items: { id: string }[] }).items.map((item) => item.id));
    }
    const answer = await context(dialogue.id, '?maxTokens=100000');
    expect(answer.messages).toEqual(long);
    expect(answer.omittedMessages).toBe(0);
    expect(answer.fromMessageId).toBe(ids[0]);
  });

  it('puts the summary first and leaves out the messages it covers', async () => {
    const dialogue = await createDialogue(api, { messages: turns });
    const compacted = await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact` });
    expect(compacted.statusCode, compacted.body).toBe(200);
    const summary = (compacted.json() as { summary: { text: string } }).summary.text;
    const later = await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'Thanks, when will it arrive?',
    });

    const answer = await context(dialogue.id);
    expect(answer.messages).toEqual([
      { role: 'system', content: `Summary of the earlier conversation:\n${summary}` },
      { role: 'user', content: 'Thanks, when will it arrive?' },
    ]);
    expect(answer.omittedMessages).toBe(4);
    expect(answer.fromMessageId).toBe(later.id);

    const transcript = await context(dialogue.id, '?format=text');
    expect(transcript.text).toBe(
      `Summary of the earlier conversation: ${summary}\n\nuser: Thanks, when will it arrive?`,
    );
    expect(transcript.messages).toBeNull();
  });

  it('answers in the Anthropic shape: system text apart, tool output as a tool_result turn (D80)', async () => {
    const dialogue = await createDialogue(api, {
      messages: [
        { role: 'system', content: 'You are a courier assistant.' },
        { role: 'developer', content: 'Answer in one sentence.' },
        { role: 'user', content: 'Where is PT-88123?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me look it up.' }] },
        { role: 'tool', name: 'call_7', content: '{"city":"Madrid"}' },
        { role: 'assistant', content: 'It is in Madrid.' },
      ],
    });
    const answer = await context(dialogue.id, '?format=anthropic');
    expect(answer.system).toBe('You are a courier assistant.\n\nAnswer in one sentence.');
    expect(answer.text).toBeNull();
    expect(answer.messages).toEqual([
      { role: 'user', content: 'Where is PT-88123?' },
      { role: 'assistant', content: 'Let me look it up.' },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_7', content: '{"city":"Madrid"}' }],
      },
      { role: 'assistant', content: 'It is in Madrid.' },
    ]);
    expect(answer.omittedMessages).toBe(0);

    // The OpenAI shape keeps every role and content blocks as stored.
    const chat = await context(dialogue.id);
    expect(chat.messages?.map((m) => m.role)).toEqual([
      'system',
      'developer',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(chat.messages?.[3]?.content).toEqual([{ type: 'text', text: 'Let me look it up.' }]);
    expect(chat.messages?.[4]).toEqual({ role: 'tool', name: 'call_7', content: '{"city":"Madrid"}' });
  });

  it('writes content blocks byte for byte, and an object content as its JSON text', async () => {
    const dialogue = await createDialogue(api);
    const raw =
      '{"dialogueId":"DID","role":"user","content":[{"type":"text","text":"n=12345678901234567890","z":1,"a":2}]}';
    const sent = await api({
      method: 'POST',
      url: `${V1}/message`,
      payload: raw.replace('DID', dialogue.id),
      headers: { 'content-type': 'application/json' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await addMessage(api, dialogue.id, { role: 'assistant', content: { answer: 42 } });
    const response = await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}/context` });
    expect(response.body).toContain('[{"type":"text","text":"n=12345678901234567890","z":1,"a":2}]');
    expect((response.json() as Context).messages?.[1]).toEqual({
      role: 'assistant',
      content: '{"answer":42}',
    });
  });

  it('refuses a bad budget or format, and names an unknown dialogue or a wrong namespace 404', async () => {
    const dialogue = await createDialogue(api, { namespace: 'tenant-a', messages: turns.slice(0, 1) });
    for (const query of ['?maxTokens=0', '?maxTokens=abc', '?format=gemini']) {
      const response = await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}/context${query}` });
      expectError(response, 400, 'INVALID_PARAMETER');
    }
    expectError(
      await api({ method: 'GET', url: `${V1}/dialogue/dlg_missing/context` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    const wrong = await api({
      method: 'GET',
      url: `${V1}/dialogue/${dialogue.id}/context?namespace=tenant-b`,
    });
    expectError(wrong, 404, 'DIALOGUE_NOT_FOUND');
    expect((await context(dialogue.id, '?namespace=tenant-a')).messages).toHaveLength(1);
  });
});

describe('MCP get_context', () => {
  it('returns what REST returns, with the same arguments and errors', async () => {
    const dialogue = await createDialogue(api, { messages: turns });
    const viaMcp = await callOk<Context>(client, 'get_context', {
      dialogueId: dialogue.id,
      maxTokens: 40,
      format: 'text',
    });
    expect(viaMcp).toEqual(await context(dialogue.id, '?maxTokens=40&format=text'));
    await callError(client, 'get_context', { dialogueId: 'dlg_missing' }, 'DIALOGUE_NOT_FOUND');
  });
});
